import { usePortalConfig } from '../api/portal-config';

/** The portal's own draft accessibility statement, linked until the organisation publishes its own. */
const DRAFT_STATEMENT_PATH = '/toegankelijkheid';

/**
 * The accessibility statement (the organisation's, else the portal's draft) and the organisation's privacy
 * statement when it has set one, at the foot of every page.
 */
export function PageFooter() {
  const config = usePortalConfig().data;
  if (!config) return null;
  const links = [
    { href: config.accessibilityStatementUrl ?? DRAFT_STATEMENT_PATH, label: 'Toegankelijkheid' },
    { href: config.privacyStatementUrl, label: 'Privacy' },
  ].filter((link): link is { href: string; label: string } => Boolean(link.href));
  return (
    <footer className="dvp-footer">
      <ul>
        {links.map((link) => (
          <li key={link.label}>
            <a className="utrecht-link" href={link.href}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </footer>
  );
}
