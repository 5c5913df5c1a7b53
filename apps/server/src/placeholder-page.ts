import type { FastifyInstance } from 'fastify';

const page = `<!doctype html>
<html lang="nl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Datavoorzieningen Portaal</title></head>
<body>
<main>
<h1>Datavoorzieningen Portaal</h1>
<p>De identiteitsdienst draait. De webapplicatie volgt in een volgende versie.</p>
</main>
</body>
</html>`;

/** Until the web app lands, the public listener answers its routes with a plain Dutch page. */
export function registerPlaceholderPage(app: FastifyInstance): void {
  for (const route of ['/', '/login', '/registration', '/recovery', '/verification', '/settings', '/error', '/permissies']) {
    app.get(route, async (_request, reply) =>
      reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page),
    );
  }
}
