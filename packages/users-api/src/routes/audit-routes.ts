import type { FastifyInstance } from 'fastify';
import { adminOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';

const encode = (entry: { at: string; id: string }) => Buffer.from(JSON.stringify(entry)).toString('base64url');
function decode(token: string): { at: string; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof parsed.at === 'string' && typeof parsed.id === 'string') return { at: parsed.at, id: parsed.id };
  } catch {
    // fall through
  }
  throw errors.invalid('The page token is invalid.', 'Deze pagina bestaat niet (meer).');
}

/** `GET /api/audit`: the organisation's audit log, newest first, for its administrators. */
export function registerAuditRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/audit', async (request) => {
    const caller = await adminOf(ctx, request, 'audit.read');
    const query = request.query as Record<string, unknown>;
    const size = Math.min(Math.max(Number(query.page_size ?? 50) || 50, 1), 200);
    const before = typeof query.page_token === 'string' && query.page_token ? decode(query.page_token) : undefined;
    const entries = await ctx.audit.list(caller.activeOrg.id, { size: size + 1, before });
    const page = entries.slice(0, size);
    return { entries: page, next_page_token: entries.length > size ? encode(page[page.length - 1]!) : '' };
  });
}
