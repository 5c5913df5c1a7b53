import { Configuration, IdentityApi, RelationshipApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';

// With ADMIN_API_TOKEN set, the admin listener (identities, relation tuples, metrics, the mailbox) answers only
// requests that carry it; the health probes stay open for orchestrators (docs/security.md#55-admin-api-token).

const TOKEN = 'beheertoken-voor-de-test-van-minstens-32-tekens';
let portaal: Portaal;

beforeAll(async () => {
  portaal = await startPortaal({ env: { ADMIN_API_TOKEN: TOKEN }, smtp: false });
});
afterAll(() => portaal.stop());

const sdk = <T>(Api: new (configuration: Configuration) => T, accessToken?: string) =>
  new Api(new Configuration({ basePath: portaal.adminUrl, accessToken }));

/** The status of an SDK call that fails, or 200. */
const statusOf = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: { response?: { status: number } }) => error.response?.status,
  );

describe('ADMIN_API_TOKEN', () => {
  it('lets the Ory SDK in with the token, as Ory Network clients send theirs', async () => {
    const identities = sdk(IdentityApi, TOKEN);
    const { data: created } = await identities.createIdentity({
      createIdentityBody: {
        schema_id: 'default',
        traits: { email: 'token@voorbeeldstad.nl', name: { first: 'Tom', last: 'Token' } },
      },
    });
    expect((await identities.getIdentity({ id: created.id })).data.id).toBe(created.id);
    const tuples = await sdk(RelationshipApi, TOKEN).getRelationships({ namespace: 'organizations' });
    expect(tuples.status).toBe(200);
  });

  it('refuses every admin call without the token or with another one, in Kratos’ error envelope', async () => {
    expect(await statusOf(sdk(IdentityApi).listIdentities())).toBe(401);
    expect(await statusOf(sdk(IdentityApi, `${TOKEN}x`).listIdentities())).toBe(401);
    expect(await statusOf(sdk(RelationshipApi).getRelationships({ namespace: 'organizations' }))).toBe(401);
    for (const path of ['/admin/identities', '/metrics', '/mail', '/admin/identities/../identities']) {
      const response = await fetch(`${portaal.adminUrl}${path}`, { headers: { authorization: 'Bearer nee' } });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await response.json()).error).toMatchObject({ code: 401, status: 'Unauthorized' });
    }
  });

  it('leaves the health probes open', async () => {
    expect((await fetch(`${portaal.adminUrl}/health/alive`)).status).toBe(200);
    expect((await fetch(`${portaal.adminUrl}/health/ready`)).status).toBe(200);
  });
});
