import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { sendJson } from '../../http/send-json.js';
import { queryOf } from '../flow-request.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /self-service/errors?id=` (docs/kratos-compatibility.md#the-error-page-store). */
export function registerErrorRoutes(app: FastifyInstance, services: IdpServices): void {
  app.get('/self-service/errors', async (request, reply) => {
    const id = queryOf(request).id ?? '';
    const now = services.ctx.clock.now().toISOString();
    if (id === 'stub:500') {
      const error = kratosErrors.internalServerError('This is a stub error.').toErrorObject();
      return sendJson(reply, 200, { id, error, created_at: now, updated_at: now });
    }
    if (!UUID.test(id)) throw kratosErrors.flowNotFound();
    const row = await services.ctx.db.kysely
      .selectFrom('selfservice_errors')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw kratosErrors.flowNotFound();
    return sendJson(reply, 200, {
      id: row.id,
      error: JSON.parse(row.error),
      created_at: row.created_at,
      updated_at: row.created_at,
    });
  });
}
