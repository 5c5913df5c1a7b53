import type { FastifyInstance } from 'fastify';

/**
 * The portal's icon in the browser's tab and bookmarks: the header's charcoal with its amber line and a 'D'. Served
 * at `/favicon.svg` (named by the web app's page) and at `/favicon.ico`, which browsers ask for by themselves.
 */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#262d30"/><rect y="25" width="32" height="4" fill="#ffbc2c"/>' +
  '<text x="16" y="20" font-family="system-ui,sans-serif" font-size="17" font-weight="700" text-anchor="middle" ' +
  'fill="#fff">D</text></svg>';

export function registerFavicon(app: FastifyInstance): void {
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, async (_request, reply) =>
      reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(ICON),
    );
  }
}
