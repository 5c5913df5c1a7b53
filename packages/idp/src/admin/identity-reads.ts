import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { sendJson } from '../http/send-json.js';
import { findCredentialsOf, findIdentities } from '../identities/identity-repository.js';
import { identityJson } from '../identities/identity-json.js';
import { normaliseEmail } from '../identities/identity-schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const list = (value: unknown): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

const encodeToken = (lastId: string) => Buffer.from(JSON.stringify({ k: lastId }), 'utf8').toString('base64url');
function decodeToken(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { k?: unknown };
    if (isUuid(parsed.k)) return parsed.k.toLowerCase();
  } catch {
    // fall through
  }
  throw kratosErrors.invalidPageToken();
}

/** The admin identity JSON with the credentials a request asked for (docs/kratos-compatibility.md#identity-json). */
export async function adminIdentitiesJson(
  services: IdpServices,
  ids: string[],
  options: { credentials: boolean; includeConfig: string[] },
) {
  const { db, config } = services.ctx;
  const identities = await findIdentities(db.kysely, ids);
  const credentials = options.credentials ? await findCredentialsOf(db.kysely, ids) : undefined;
  return identities.map((identity) =>
    identityJson(identity, {
      publicUrl: config.publicUrl,
      admin: true,
      credentials: credentials ? (credentials.get(identity.id) ?? []) : undefined,
      includeConfig: options.includeConfig,
    }),
  );
}

export function registerIdentityReads(app: FastifyInstance, services: IdpServices): void {
  const { db, config } = services.ctx;

  app.get('/admin/identities', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const ids = list(query.ids);
    const identifier = list(query.credentials_identifier)[0];
    const similar = list(query.preview_credentials_identifier_similar)[0];
    const includeConfig = list(query.include_credential);
    if ([ids.length > 0, identifier !== undefined, similar !== undefined].filter(Boolean).length > 1) {
      throw kratosErrors.badRequest('You cannot combine multiple filters in this API');
    }
    if (ids.length > 500) throw kratosErrors.badRequest('The ids filter accepts at most 500 ids.');
    const rawSize = list(query.page_size)[0] ?? list(query.per_page)[0];
    const pageSize = rawSize === undefined ? 250 : Number(rawSize);
    if (!Number.isInteger(pageSize) || pageSize < 1)
      throw kratosErrors.badRequest('The page size must be a positive integer.');
    const size = Math.min(pageSize, 500);
    const token = list(query.page_token)[0];
    const after = token ? decodeToken(token) : undefined;

    let select = db.kysely
      .selectFrom('identities')
      .select('id')
      .orderBy('id')
      .limit(size + 1);
    if (after) select = select.where('id', '>', after);
    if (ids.length > 0)
      select = select.where(
        'id',
        'in',
        ids
          .filter(isUuid)
          .map((id) => id.toLowerCase())
          .concat(['00000000-0000-0000-0000-000000000000']),
      );
    if (identifier !== undefined || similar !== undefined) {
      const matching = db.kysely.selectFrom('identity_credential_identifiers').select('identity_id');
      const filtered =
        identifier !== undefined
          ? matching.where('identifier', '=', normaliseEmail(identifier))
          : matching.where('identifier', 'like', `${normaliseEmail(similar!).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      select = select.where('id', 'in', filtered);
    }
    const rows = await select.execute();
    const page = rows.slice(0, size).map((r) => r.id);
    const base = new URL('/admin/identities', config.adminUrl);
    const link = (pageToken?: string) => {
      const url = new URL(base);
      url.searchParams.set('page_size', String(size));
      if (pageToken) url.searchParams.set('page_token', pageToken);
      return url.pathname + url.search;
    };
    const links = [`<${link()}>; rel="first"`];
    if (rows.length > size) links.push(`<${link(encodeToken(page[page.length - 1]!))}>; rel="next"`);
    void reply.header('Link', links.join(','));
    const withCredentials = identifier !== undefined || includeConfig.length > 0;
    return sendJson(
      reply,
      200,
      await adminIdentitiesJson(services, page, { credentials: withCredentials, includeConfig }),
    );
  });

  app.get<{ Params: { id: string } }>('/admin/identities/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isUuid(id)) throw kratosErrors.identityNotFound();
    const includeConfig = list((request.query as Record<string, unknown>).include_credential);
    const [identity] = await adminIdentitiesJson(services, [id.toLowerCase()], { credentials: true, includeConfig });
    if (!identity) throw kratosErrors.identityNotFound();
    return sendJson(reply, 200, identity);
  });
}
