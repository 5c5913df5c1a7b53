import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// `PUT /users/:id/permissions`, the edit dialog's one call for data roles and the administrator option: the member's
// relations within the organisation become exactly those asked, in one write with an audit entry per change.

let api: InProcessApi;
let admin: UserIdentity;
let anne: UserIdentity;

const role = (id: string, org = 'voorbeeldstad') => ({
  namespace: 'subdivisions',
  object: `${id}_${org}`,
  relation: 'issuer',
});
const orgRelation = (relation: string, org = 'voorbeeldstad') => ({
  namespace: 'organizations',
  object: org,
  relation,
});

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('issuer'),
    orgRelation('admin'),
  ]);
  anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('issuer'),
    orgRelation('access', 'dijkstad'),
    role('ruimte'),
    role('sociaal-domein'),
    role('veiligheid', 'dijkstad'),
  ]);
});

afterEach(() => api.close());

/** The person's tuples as `namespace:object#relation`, sorted. */
async function tuplesOf(user: UserIdentity) {
  const tuples = await api.ctx.backend.relations.list({ subject_id: user.id });
  return tuples.map((t) => `${t.namespace}:${t.object}#${t.relation}`).sort();
}

const auditActions = async () => (await api.stored()).audit_log!.map((row) => JSON.parse(row as string).action);

describe('setting a member’s data roles and administrator relation', () => {
  it('adds what is new, removes what is no longer chosen, leaves other organisations and unchanged roles', async () => {
    const answer = await api.call(admin, 'PUT', `/api/users/${anne.id}/permissions`, [
      role('sociaal-domein'),
      role('financien'),
      orgRelation('admin'),
    ]);
    expect(answer.statusCode).toBe(200);
    expect(await tuplesOf(anne)).toEqual([
      'organizations:dijkstad#access',
      'organizations:voorbeeldstad#admin',
      'organizations:voorbeeldstad#issuer',
      'subdivisions:financien_voorbeeldstad#issuer',
      'subdivisions:sociaal-domein_voorbeeldstad#issuer',
      'subdivisions:veiligheid_dijkstad#issuer',
    ]);
    expect(
      answer
        .json()
        .map((p: { object: string; relation: string }) => `${p.object}#${p.relation}`)
        .sort(),
    ).toEqual([
      'financien_voorbeeldstad#issuer',
      'sociaal-domein_voorbeeldstad#issuer',
      'voorbeeldstad#admin',
      'voorbeeldstad#issuer',
    ]);
    // One entry for what was given, one for the role withdrawn; none for 'Sociaal domein', which stayed.
    expect((await auditActions()).sort()).toEqual(['permissions.add', 'permissions.remove']);
  });

  it('writes nothing, not even an audit entry, when nothing changes', async () => {
    const before = await api.stored();
    const answer = await api.call(admin, 'PUT', `/api/users/${anne.id}/permissions`, [
      role('sociaal-domein'),
      role('ruimte'),
    ]);
    expect(answer.statusCode).toBe(200);
    expect(await api.stored()).toEqual(before);
  });

  it('takes every data role away with an empty list; one’s own administrator relation stays', async () => {
    expect((await api.call(admin, 'PUT', `/api/users/${anne.id}/permissions`, [])).statusCode).toBe(200);
    expect(await tuplesOf(anne)).toEqual([
      'organizations:dijkstad#access',
      'organizations:voorbeeldstad#issuer',
      'subdivisions:veiligheid_dijkstad#issuer',
    ]);
    expect((await api.call(admin, 'PUT', `/api/users/${admin.id}/permissions`, [role('ruimte')])).statusCode).toBe(200);
    expect(await tuplesOf(admin)).toEqual([
      'organizations:voorbeeldstad#admin',
      'organizations:voorbeeldstad#issuer',
      'subdivisions:ruimte_voorbeeldstad#issuer',
    ]);
  });
});
