import { Link } from 'react-router';
import { usePageTitle } from '../layout/use-page-title';

/** Any address the portal does not know (the server answers it with a 404 too). */
export default function NotFoundScreen() {
  usePageTitle('Pagina niet gevonden');
  return (
    <main className="dvp-main" id="inhoud">
      <h1 className="utrecht-heading-1">Pagina niet gevonden</h1>
      <p className="utrecht-paragraph">
        Deze pagina bestaat niet. Controleer het adres of ga verder naar je datavoorzieningen.
      </p>
      <Link className="utrecht-link" to="/permissies">
        Naar Datavoorzieningen
      </Link>
    </main>
  );
}
