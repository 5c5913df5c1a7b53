import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { auditAbout } from '../audit/audit-about.js';
import { auditCsv, auditCsvName } from '../audit/audit-csv.js';
import { auditPage } from '../audit/audit-page.js';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { auditCsvQuery, auditQuery } from '../http/validation.js';

const PAGE = { querystring: auditQuery };
const CSV = { querystring: auditCsvQuery };

/**
 * 'Logboek': the organisation's audit log for its administrators, newest first, narrowed by person, action and
 * period; a page at a time (`GET /api/audit`), or every entry as CSV (`GET /api/audit.csv`), which is itself audited.
 */
export function registerAuditRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/audit', { schema: PAGE, preValidation: administrator(ctx, 'audit.read') }, async (request) => {
    const { size, before, filter } = checked(request, PAGE).query;
    return auditPage(ctx.audit, ctx.backend.identities, adminIn(request).activeOrg.id, { size, before }, filter);
  });

  app.get('/audit.csv', { schema: CSV, preValidation: administrator(ctx, 'audit.export') }, async (request, reply) => {
    const caller = adminIn(request);
    const filter = checked(request, CSV).query;
    const narrowed = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
    await ctx.audit.record(auditAbout(caller, request, 'audit.export', null, 'success', narrowed));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${auditCsvName(caller.activeOrg.id, new Date())}"`)
      .send(Readable.from(auditCsv(ctx.audit, ctx.backend.identities, caller.activeOrg.id, filter)));
  });
}
