import { usePortalConfig } from '../api/portal-config';

/**
 * The head of every page, sign-in included: the way past it to the content, and the programme's name and description
 * ('Datavoorzieningen VNG' and 'Datavoorziening VNG Realisatie' unless the installation sets its own).
 */
export function PageHeader() {
  const config = usePortalConfig().data;
  return (
    <header className="dvp-header">
      <a className="dvp-skip-link utrecht-link" href="#inhoud">
        Naar de inhoud
      </a>
      <div className="dvp-header__inner">
        <p className="dvp-header__title">{config?.title ?? 'Datavoorzieningen VNG'}</p>
        <p className="dvp-header__description">{config?.description ?? 'Datavoorziening VNG Realisatie'}</p>
      </div>
    </header>
  );
}
