import { escapeHtml } from '../http/escape-html.js';
import { type HouseBrand, housePage } from '../http/house-page.js';

/**
 * The page a person sees who opened a service they may not use, for proxies that show the portal's answer to the
 * browser (Traefik, with `?redirect=true`): the refusal in Dutch and the way to the services they may use, in the
 * house style (http/house-page.ts). No script; its Content-Security-Policy allows only that style.
 */
export function refusalPage(message: string, publicUrl: URL, brand: HouseBrand): string {
  const services = new URL('/permissies', publicUrl).toString();
  return housePage(
    'Geen toegang',
    `<p>${escapeHtml(message)}</p>\n<p><a href="${escapeHtml(services)}">Naar je datavoorzieningen</a></p>`,
    brand,
  );
}
