import type { FastifyInstance } from 'fastify';
import { auditPage } from '../audit/audit-page.js';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { auditQuery } from '../http/validation.js';

const PAGE = { querystring: auditQuery };

/** `GET /api/audit`: the organisation's audit log, newest first, for its administrators. */
export function registerAuditRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/audit', { schema: PAGE, preValidation: administrator(ctx, 'audit.read') }, async (request) => {
    const { size, before } = checked(request, PAGE).query;
    return auditPage(ctx.audit, adminIn(request).activeOrg.id, size, before);
  });
}
