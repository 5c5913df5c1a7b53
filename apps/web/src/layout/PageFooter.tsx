import { usePortalConfig } from '../api/queries';

/** The organisation's accessibility and privacy statements, at the foot of every page, when it has set them. */
export function PageFooter() {
  const config = usePortalConfig().data;
  const links = [
    { href: config?.accessibilityStatementUrl, label: 'Toegankelijkheid' },
    { href: config?.privacyStatementUrl, label: 'Privacy' },
  ].filter((link): link is { href: string; label: string } => Boolean(link.href));
  if (links.length === 0) return null;
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
