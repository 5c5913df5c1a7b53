import { createHash } from 'node:crypto';
import type { UsersApiOptions } from '../context.js';
import { escapeHtml } from './escape-html.js';

/** The programme's name and description that head every page, the web app's (`GET /api/config`) and the server's. */
export interface HouseBrand {
  title: string;
  description: string;
}

/** The installation's own title and description (PORTAL_TITLE, PORTAL_DESCRIPTION), else the programme's. */
export const brandOf = (options: Pick<UsersApiOptions, 'sidebarTitle' | 'sidebarDescription'>): HouseBrand => ({
  title: options.sidebarTitle ?? 'Datavoorzieningen VNG',
  description: options.sidebarDescription ?? 'Datavoorziening VNG Realisatie',
});

/**
 * The pages the server renders itself (the OpenID Connect provider's questions and refusals, forward
 * authentication's refusal) in the house style of the web app's sign-in screens: the charcoal header with the
 * programme's name, a white panel on a grey page on a wide screen and the whole width on a phone, amber primary and
 * grey secondary buttons, the same focus ring (apps/web/src/styles/theme.css). A person arriving from a data service
 * sees the same product. No script; the style is inline, allowed by its hash (`HOUSE_STYLE_SOURCE`).
 */
const HOUSE_STYLE = [
  '*{box-sizing:border-box}',
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;',
  'font-size:16px;line-height:1.5;color:#262d30;background:#f2f4f7}',
  'header{background:#262d30;color:#fff;border-block-end:4px solid #ffbc2c;padding:1rem 2.5rem;display:flex;',
  'flex-wrap:wrap;align-items:baseline;column-gap:1rem;row-gap:.125rem}',
  'header p{margin:0;overflow-wrap:anywhere}',
  '.titel{font-size:1.25rem;font-weight:700;line-height:1.25}',
  '.omschrijving{font-size:.875rem;color:#e0e4ea}',
  'main{max-inline-size:40rem;margin:2.5rem auto;padding:2.5rem 2rem;background:#fff;border:1px solid #e0e4ea;',
  'border-radius:8px;box-shadow:0 1px 3px rgb(38 45 48 / 8%)}',
  'h1{font-size:clamp(1.5rem,1.1rem + 2vw,2rem);line-height:1.25;margin:0 0 1rem}',
  'p{margin:0 0 .75rem}',
  'a{color:#0b71a1}a:hover{color:#005282}',
  '.knoppen{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.25rem 0}',
  'form{margin:0}',
  'button{font:inherit;font-weight:600;min-block-size:44px;padding:.5rem 1.25rem;border:0;border-radius:4px;',
  'cursor:pointer;background:#e0e4ea;color:#262d30}',
  'button:hover{background:#cccfd5}',
  'button.primair{background:#ffbc2c}button.primair:hover{background:#e5a827}',
  ':focus-visible{outline:3px solid #0b71a1;outline-offset:2px}',
  'details{margin-block-start:1.25rem;color:#474e57;font-size:.875rem}',
  '@media (max-width:767px){body{background:#fff}header{padding:.75rem 1rem}',
  'main{margin:0;border:0;border-radius:0;box-shadow:none;',
  'padding:1.5rem 1rem}}',
].join('');

/** For a Content-Security-Policy that allows this style and nothing else: `style-src` with this source. */
export const HOUSE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(HOUSE_STYLE).digest('base64')}'`;

/**
 * A whole page under the installation's header (`brand`, from `brandOf`): `body` is HTML the caller built, everything
 * it interpolated escaped.
 */
export function housePage(title: string, body: string, brand: HouseBrand): string {
  return `<!DOCTYPE html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Datavoorzieningen Portaal</title>
<style>${HOUSE_STYLE}</style>
</head>
<body>
<header><p class="titel">${escapeHtml(brand.title)}</p>\
<p class="omschrijving">${escapeHtml(brand.description)}</p></header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}
