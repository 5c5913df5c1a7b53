import { Link } from 'react-router';
import { usePageTitle } from '../layout/use-page-title';

/** Screens that are being built (issue 4); the identity provider's own API already works behind them. */
export default function ComingSoonScreen({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <main className="dvp-main" id="inhoud">
      <h1 className="utrecht-heading-1">{title}</h1>
      <p className="utrecht-paragraph">Dit scherm is nog in aanbouw.</p>
      <Link className="utrecht-link" to="/permissies">
        Naar Datavoorzieningen
      </Link>
    </main>
  );
}
