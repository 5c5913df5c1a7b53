import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { CALLER_HEADER, type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// `GET /services` for a person of two organisations, through the mounted Users API on the demo catalogue: only the
// services of the organisation they work for now, those of the other one after switching (docs/organisations.md).

let api: InProcessApi;
/** Home in Voorbeeldstad with the data role Ruimte en wonen, also in DEGO with Analyse. */
let bea: UserIdentity;

const role = (id: string, org: string) => ({ namespace: 'subdivisions', object: `${id}_${org}`, relation: 'issuer' });
const member = (org: string) => ({ namespace: 'organizations', object: org, relation: 'issuer' });

beforeEach(async () => {
  api = await inProcessUsersApi();
  bea = await api.person('bea@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
    member('dego'),
    role('analyse', 'dego'),
  ]);
});
afterEach(() => api.close());

async function services() {
  const answer = await api.app.inject({ method: 'GET', url: '/api/services', headers: { [CALLER_HEADER]: bea.id } });
  expect(answer.statusCode).toBe(200);
  const body = answer.json();
  return {
    organisation: body.organisation.id,
    dataRoles: body.dataRoles.map((r: { roleId: string }) => r.roleId),
    services: body.services.map((s: { id: string }) => s.id).sort(),
  };
}

describe('GET /services for a person of two organisations', () => {
  it("lists only the active organisation's services, and the other one's after switching", async () => {
    // Wijkmonitor is for every organisation; Woningbouwplanner for Ruimte en wonen of Voorbeeldstad; the
    // Begrotingsvergelijker for Analyse of DEGO.
    expect(await services()).toEqual({
      organisation: 'voorbeeldstad',
      dataRoles: ['ruimte'],
      services: ['wijkmonitor', 'woningbouwplanner'],
    });
    const switched = await api.app.inject({
      method: 'PUT',
      url: '/api/users/active-organisation',
      headers: { [CALLER_HEADER]: bea.id, origin: api.publicUrl.origin },
      payload: { organisation: 'dego' },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(await services()).toEqual({
      organisation: 'dego',
      dataRoles: ['analyse'],
      services: ['begrotingsvergelijker', 'wijkmonitor'],
    });
  });
});
