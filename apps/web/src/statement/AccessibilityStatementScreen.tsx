import { useMemo } from 'react';
import { usePortalConfig } from '../api/portal-config';
import { Loading } from '../components/Loading';
import { usePageTitle } from '../layout/use-page-title';
import { statementHtml } from './statement-html';
import './statement.css';

/**
 * The draft accessibility statement at /toegankelijkheid, for anyone, signed in or not: the footer links here until
 * the organisation sets ACCESSIBILITY_STATEMENT_URL to the statement it publishes (docs/accessibility.md).
 */
export default function AccessibilityStatementScreen() {
  usePageTitle('Toegankelijkheidsverklaring');
  const config = usePortalConfig();
  const html = useMemo(
    () =>
      config.isPending
        ? null
        : statementHtml({
            title: config.data?.title ?? 'het Datavoorzieningen Portaal',
            contactEmail: config.data?.feedbackEmail ?? config.data?.supportEmail ?? null,
          }),
    [config.isPending, config.data],
  );
  return (
    <main className="dvp-main dvp-statement" id="inhoud">
      {html === null ? (
        <Loading />
      ) : (
        // The statement's text is the repository's own Markdown; the configured values in it are escaped.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
        <div dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </main>
  );
}
