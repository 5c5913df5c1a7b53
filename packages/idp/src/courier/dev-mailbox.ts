import type { FastifyInstance } from 'fastify';
import type { IdpContext } from '../context.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const linkify = (escaped: string) => escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;\
color:#262D30}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #E0E4EA}
pre{white-space:pre-wrap;background:#F5F6F8;padding:1rem}a{color:#0B71A1}</style></head>
<body><main>${body}</main></body></html>`;

/**
 * The development mailbox: without SMTP every mail can be read at `/mail` on the admin listener (loopback only by
 * default), with `/mail/messages.json` for tools.
 */
export function registerDevMailbox(app: FastifyInstance, ctx: IdpContext): void {
  if (ctx.config.mail.smtpUrl) return;
  const newest = (to?: string) => {
    let query = ctx.db.kysely.selectFrom('courier_messages').selectAll().orderBy('created_at', 'desc').limit(100);
    if (to) query = query.where('recipient', '=', to.toLowerCase());
    return query.execute();
  };

  app.get('/mail', async (_request, reply) => {
    const rows = await newest();
    const items = rows
      .map((m) => {
        const sentAt = new Date(m.created_at).toLocaleString('nl-NL', { timeZone: 'Europe/Amsterdam' });
        return (
          `<tr><td>${escapeHtml(sentAt)}</td><td>${escapeHtml(m.recipient)}</td>` +
          `<td><a href="/mail/${m.id}">${escapeHtml(m.subject)}</a></td></tr>`
        );
      })
      .join('');
    const body = rows.length
      ? '<table><caption>Nieuwste e-mails eerst</caption>' +
        '<thead><tr><th scope="col">Tijd</th><th scope="col">Aan</th><th scope="col">Onderwerp</th></tr></thead>' +
        `<tbody>${items}</tbody></table>`
      : '<p>Er zijn nog geen e-mails verstuurd.</p>';
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(
        page(
          'Ontwikkel-mailbox',
          `<h1>Ontwikkel-mailbox</h1><p>Zonder SMTP-server komen alle e-mails hier terecht.</p>${body}`,
        ),
      );
  });

  app.get('/mail/messages.json', async (request, reply) => {
    const to = (request.query as Record<string, string | undefined>).to;
    const rows = await newest(to);
    return reply
      .header('Cache-Control', 'no-store')
      .send(
        rows.map((m) => ({ id: m.id, to: m.recipient, subject: m.subject, text: m.body, created_at: m.created_at })),
      );
  });

  app.get<{ Params: { id: string } }>('/mail/:id', async (request, reply) => {
    const mail = await ctx.db.kysely
      .selectFrom('courier_messages')
      .selectAll()
      .where('id', '=', request.params.id)
      .executeTakeFirst();
    if (!mail) {
      return reply
        .code(404)
        .header('Content-Type', 'text/html; charset=utf-8')
        .send(
          page('Niet gevonden', '<h1>Deze e-mail bestaat niet</h1><p><a href="/mail">Terug naar de mailbox</a></p>'),
        );
    }
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(
        page(
          mail.subject,
          `<p><a href="/mail">Terug naar de mailbox</a></p><h1>${escapeHtml(mail.subject)}</h1>` +
            `<p>Aan: ${escapeHtml(mail.recipient)}</p><pre>${linkify(escapeHtml(mail.body))}</pre>`,
        ),
      );
  });
}
