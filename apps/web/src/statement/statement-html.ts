import { Marked } from 'marked';
import statement from '../../../../docs/toegankelijkheidsverklaring.md?raw';

/** What the statement fills in from the portal's configuration (`/api/config`). */
export interface StatementFacts {
  title: string;
  /** The address for feedback, else for support; without one the statement names the organisation's helpdesk. */
  contactEmail: string | null;
}

const NO_CONTACT = 'mail of bel de helpdesk van je gemeente';
const PLAIN_ADDRESS = /^[^\s<>()[\]"'`\\]+@[^\s<>()[\]"'`\\]+$/;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// NL Design System classes on the elements the statement uses, so it looks like every other page; raw HTML (the
// comment for the organisation) is left out.
const marked = new Marked({
  renderer: {
    html() {
      return '';
    },
    heading({ tokens, depth }) {
      return `<h${depth} class="utrecht-heading-${depth}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
    paragraph({ tokens }) {
      return `<p class="utrecht-paragraph">${this.parser.parseInline(tokens)}</p>\n`;
    },
    link({ href, tokens }) {
      return `<a class="utrecht-link" href="${escapeHtml(href)}">${this.parser.parseInline(tokens)}</a>`;
    },
  },
});

/**
 * The draft accessibility statement (docs/toegankelijkheidsverklaring.md, kept in Dutch beside docs/accessibility.md)
 * as HTML, with the portal's name and contact address filled in. The text is the repository's own; the configured
 * values are escaped, and an address is linked only when it is a plain address.
 */
export function statementHtml(facts: StatementFacts): string {
  const contact =
    facts.contactEmail && PLAIN_ADDRESS.test(facts.contactEmail)
      ? `mail naar [${facts.contactEmail}](mailto:${facts.contactEmail})`
      : NO_CONTACT;
  const text = statement.replaceAll('{{titel}}', escapeHtml(facts.title)).replaceAll('{{contact}}', contact);
  return marked.parse(text, { async: false });
}
