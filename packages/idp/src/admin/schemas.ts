import type { FastifyInstance } from 'fastify';
import { kratosErrors } from '../errors/kratos-errors.js';
import { DEFAULT_SCHEMA_ID, identitySchema } from '../identities/identity-schema.js';

/** `GET /schemas` and `GET /schemas/:id` (docs/kratos-compatibility.md#identity-schema), on the public listener. */
export function registerSchemaRoutes(app: FastifyInstance): void {
  app.get('/schemas', async () => [{ id: DEFAULT_SCHEMA_ID, schema: identitySchema }]);
  app.get<{ Params: { id: string } }>('/schemas/:id', async (request) => {
    const { id } = request.params;
    const decoded = Buffer.from(id, 'base64url').toString('utf8');
    if (id !== DEFAULT_SCHEMA_ID && decoded !== DEFAULT_SCHEMA_ID) throw kratosErrors.schemaNotFound();
    return identitySchema;
  });
}
