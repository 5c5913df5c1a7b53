import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { registerFavicon } from './favicon.js';

const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Paths that belong to an API, never to the web app: unknown ones there answer 404, not the app's page. */
const API_PREFIXES = ['/api/', '/self-service/', '/sessions/', '/schemas/', '/admin/', '/health/', '/.well-known/'];

/**
 * The app's own routes answer 200, as does any other path containing 'admin' (the app shows the administrator
 * sign-in there); any other path gets the app (which says the page does not exist) with a 404.
 */
export const APP_ROUTES: ReadonlySet<string> = new Set([
  '/',
  '/login',
  '/admin-login',
  '/recovery',
  '/verification',
  '/registration',
  '/settings',
  '/settings/2fa-app',
  '/permissies',
  '/error',
  '/uitloggen',
  '/toegankelijkheid',
  '/logboek',
  '/toegangsreview',
  '/importeren',
  '/programmabeheer',
  '/programmabeheer/datavoorzieningen',
  '/programmabeheer/beheerders',
]);

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

const notBuilt = `<!doctype html>
<html lang="nl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Datavoorzieningen Portaal</title></head>
<body><main><h1>Datavoorzieningen Portaal</h1>
<p>De server draait, maar de webapplicatie is nog niet gebouwd. \
Voer <code>npm run build</code> uit en start opnieuw.</p>
</main></body></html>`;

/**
 * `index.html` as the build last wrote it: read again once the file changed, so that a server still running after
 * `npm run build` never sends a page naming script files the build removed (an empty page); `notBuilt` while there
 * is none.
 */
function currentPage(indexFile: string): () => Promise<string> {
  let kept: { version: string; text: string } | undefined;
  return async () => {
    const found = await stat(indexFile).catch(() => undefined);
    if (!found) return notBuilt;
    const version = `${found.mtimeMs}:${found.size}`;
    if (kept?.version !== version) kept = { version, text: await readFile(indexFile, 'utf8') };
    return kept.text;
  };
}

/**
 * The single-page app on the public listener: hashed assets cached for a year, and `index.html` (no-store, with a
 * strict Content-Security-Policy) for every other GET that is not an API path, so that deep links work.
 */
export async function registerWebApp(app: FastifyInstance, distDir = WEB_DIST): Promise<void> {
  const page = currentPage(path.join(distDir, 'index.html'));
  if (existsSync(path.join(distDir, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(distDir, 'assets'),
      prefix: '/assets/',
      index: false,
      // The build writes a .br and a .gz beside each text asset; the one the browser accepts is sent as it is.
      preCompressed: true,
      // Caches between the browser and us must keep the copies apart.
      setHeaders: (response) => response.setHeader('Vary', 'Accept-Encoding'),
      immutable: true,
      maxAge: '365d',
    });
  }
  registerFavicon(app);
  app.get('/*', async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((prefix) => url.startsWith(prefix)) || url === '/api') {
      return reply
        .code(404)
        .header('Content-Type', 'application/json')
        .send({ error: { code: 404, status: 'Not Found', message: 'Not Found' } });
    }
    // A backslash is no part of an app path: `/\admin/…` is a probe for the admin API, not a screen.
    const adminScreen = url.includes('admin') && !url.includes('\\');
    const known = APP_ROUTES.has(url.length > 1 ? url.replace(/\/+$/, '') : url) || adminScreen;
    return reply
      .code(known ? 200 : 404)
      .headers(PAGE_HEADERS)
      .send(await page());
  });
}
