import { escapeHtml } from '../http/escape-html.js';

/**
 * The page a person sees who opened a service they may not use, for proxies that show the portal's answer to the
 * browser (Traefik, with `?redirect=true`): the refusal in Dutch and the way to the services they may use. No script
 * and no style, so its Content-Security-Policy allows nothing.
 */
export function refusalPage(message: string, publicUrl: URL): string {
  const services = new URL('/permissies', publicUrl).toString();
  return [
    '<!doctype html>',
    '<html lang="nl">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Geen toegang</title></head>',
    '<body><main>',
    '<h1>Geen toegang</h1>',
    `<p>${escapeHtml(message)}</p>`,
    `<p><a href="${escapeHtml(services)}">Naar je datavoorzieningen</a></p>`,
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}
