import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors/herodot.js';
import { DEFAULT_SCHEMA_ID, identitySchema } from '../identities/identity-schema.js';

/** `GET /schemas` and `GET /schemas/:id` (docs/kratos-compatibility.md#identity-schema), on the public listener. */
export function registerSchemaRoutes(app: FastifyInstance): void {
  app.get('/schemas', async () => [{ id: DEFAULT_SCHEMA_ID, schema: identitySchema }]);
  app.get<{ Params: { id: string } }>('/schemas/:id', async (request) => {
    const { id } = request.params;
    const decoded = Buffer.from(id, 'base64url').toString('utf8');
    if (id !== DEFAULT_SCHEMA_ID && decoded !== DEFAULT_SCHEMA_ID)
      throw new HttpError({ code: 404, message: 'Unable to locate the resource' });
    return identitySchema;
  });
}
