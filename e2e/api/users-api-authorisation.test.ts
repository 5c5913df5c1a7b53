import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { newBrowser, type Browser } from '../support/ory.js';
import { uniqueEmail } from '../support/identities.js';
import {
  DEMO_PASSWORD,
  api,
  databaseSnapshot,
  portaalCli,
  signInAtAal1,
  signInAtAal2,
} from '../support/portal-users.js';

// Every administration call, made by each kind of caller that must not make it: each is refused and changes
// nothing in the database.

let portaal: Deployment;
let targetId: string;
let targetEmail: string;
const callers: Record<string, Browser> = {};

function createWithCli(email: string, password: string, org: string, admin = false) {
  const result = portaalCli(portaal, [
    'user',
    'create',
    '--email',
    email,
    '--first-name',
    'Test',
    '--last-name',
    'Persoon',
    '--password',
    password,
    '--org',
    org,
    ...(admin ? ['--admin'] : []),
  ]);
  expect(result.status, result.stderr).toBe(0);
}

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  const bea = await signInAtAal2(portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
  const target = uniqueEmail('doelwit');
  expect(
    (
      await api(portaal, bea.browser, 'POST', '/users', {
        traits: { email: target, name: { first: 'Doel', last: 'Wit' } },
      })
    ).status,
  ).toBe(201);
  targetId = (await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(target)}`)).body[0].id;
  targetEmail = target;

  callers['a member who is not an administrator'] = (
    await signInAtAal2(portaal, 'medewerker@voorbeeldstad.nl', DEMO_PASSWORD)
  ).browser;

  createWithCli('beheer@dijkstad.nl', 'Polder-Molen-Sluis-42', 'dijkstad', true);
  callers['an administrator of another organisation'] = (
    await signInAtAal2(portaal, 'beheer@dijkstad.nl', 'Polder-Molen-Sluis-42')
  ).browser;

  createWithCli('geblokkeerd@voorbeeldstad.nl', 'Hooiberg-Naald-Zoek-8', 'voorbeeldstad', true);
  const blocked = await signInAtAal2(portaal, 'geblokkeerd@voorbeeldstad.nl', 'Hooiberg-Naald-Zoek-8');
  const blockedId = (await api(portaal, blocked.browser, 'GET', '/users/whoami')).body.identity.id;
  expect((await api(portaal, bea.browser, 'PUT', `/users/${blockedId}`, { state: 'inactive' })).status).toBe(200);
  callers['a blocked administrator'] = blocked.browser;

  createWithCli('halverwege@voorbeeldstad.nl', 'Zeilboot-Wind-Meer-3', 'voorbeeldstad', true);
  callers['an administrator at aal1 in a non-exempt organisation'] = (
    await signInAtAal1(portaal, 'halverwege@voorbeeldstad.nl', 'Zeilboot-Wind-Meer-3')
  ).browser;

  callers['no session'] = newBrowser(portaal.publicUrl);
});
afterAll(async () => {
  await portaal?.stop();
});

const adminCalls = () => [
  { name: 'GET /users', method: 'GET', path: '/users' },
  { name: 'HEAD /users', method: 'HEAD', path: '/users?email=medewerker%40voorbeeldstad.nl' },
  { name: 'GET /audit', method: 'GET', path: '/audit' },
  {
    name: 'POST /users',
    method: 'POST',
    path: '/users',
    body: {
      traits: { email: uniqueEmail('nieuw'), name: { first: 'N', last: 'N' } },
      permissions: [{ namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin' }],
    },
  },
  { name: 'PUT /users/{id}', method: 'PUT', path: `/users/${targetId}`, body: { state: 'inactive' } },
  { name: 'DELETE /users?id=', method: 'DELETE', path: `/users?id=${targetId}` },
  { name: 'DELETE /users/{id}/totp', method: 'DELETE', path: `/users/${targetId}/totp` },
  {
    name: 'PUT /permissions/{id}',
    method: 'PUT',
    path: `/permissions/${targetId}`,
    body: [{ namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin' }],
  },
  {
    name: 'DELETE /permissions',
    method: 'DELETE',
    path: `/permissions?namespace=organizations&object=voorbeeldstad&relation=issuer&subject_id=${targetId}`,
  },
];

// The existence check and the caller's own organisation's list and log are open to any administrator by design.
const OPEN_TO_ANY_ADMIN = new Set(['GET /users', 'HEAD /users', 'GET /audit']);

describe.each(
  Object.keys({
    'a member who is not an administrator': 0,
    'an administrator of another organisation': 0,
    'a blocked administrator': 0,
    'an administrator at aal1 in a non-exempt organisation': 0,
    'no session': 0,
  }),
)('%s', (who) => {
  it('is refused every administration call and changes nothing', async () => {
    const browser = callers[who]!;
    for (const call of adminCalls()) {
      if (who === 'an administrator of another organisation' && OPEN_TO_ANY_ADMIN.has(call.name)) continue;
      const before = await databaseSnapshot(portaal);
      const answer = await api(portaal, browser, call.method, call.path, call.body);
      expect([401, 403, 404, 409], `${call.name}: ${answer.status} ${JSON.stringify(answer.body)}`).toContain(
        answer.status,
      );
      expect(await databaseSnapshot(portaal), call.name).toBe(before);
    }
  });

  it('answers the expected refusal', async () => {
    const answer = await api(portaal, callers[who]!, 'PUT', `/users/${targetId}`, { state: 'inactive' });
    const expected: Record<string, [number, string]> = {
      'a member who is not an administrator': [403, 'forbidden_not_admin'],
      'an administrator of another organisation': [404, 'user_not_found'],
      'a blocked administrator': [401, 'session_inactive'],
      'an administrator at aal1 in a non-exempt organisation': [403, 'session_aal2_required'],
      'no session': [401, 'session_inactive'],
    };
    expect([answer.status, answer.body.error.id]).toEqual(expected[who]);
  });
});

describe('an administrator of another organisation', () => {
  it('does not see the members of this organisation', async () => {
    const listed = await api(portaal, callers['an administrator of another organisation'], 'GET', '/users');
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { id: string }) => u.id)).not.toContain(targetId);
  });

  it('only invites a member of this organisation: the account and its permissions stay as they are', async () => {
    const dijkstad = callers['an administrator of another organisation']!;
    expect((await api(portaal, dijkstad, 'GET', '/users/whoami')).status).toBe(200);
    const before = await databaseSnapshot(portaal);
    const answer = await api(portaal, dijkstad, 'POST', '/users', {
      traits: { email: targetEmail, name: { first: 'Over', last: 'Genomen' } },
      permissions: [{ namespace: 'organizations', object: 'dijkstad', relation: 'admin' }],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.invitation.id).toEqual(expect.any(String));
    expect(await databaseSnapshot(portaal)).toBe(before);
    const invited = (await api(portaal, dijkstad, 'GET', '/users')).body.find((u: { id: string }) => u.id === targetId);
    expect(invited).toMatchObject({ credentials: [], invitation: { id: answer.body.invitation.id } });
    // An invited person is no member: every administration call on them is still refused.
    const block = await api(portaal, dijkstad, 'PUT', `/users/${targetId}`, { state: 'inactive' });
    expect([block.status, block.body.error.id]).toEqual([404, 'user_not_found']);
    expect((await api(portaal, dijkstad, 'DELETE', `/users?id=${targetId}`)).status).toBe(404);
    expect(await databaseSnapshot(portaal)).toBe(before);
  });
});

describe('the aal1 rules', () => {
  it('answers whoami and configured credentials at aal1, saying aal2 is required', async () => {
    const browser = callers['an administrator at aal1 in a non-exempt organisation']!;
    const whoami = await api(portaal, browser, 'GET', '/users/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ aal2Required: true, authenticator_assurance_level: 'aal1' });
    expect((await api(portaal, browser, 'GET', '/users/configured-credentials')).body).toEqual({
      totp: false,
      lookup_secret: false,
    });
    expect((await api(portaal, browser, 'GET', '/services')).status).toBe(403);
  });

  it('lets a DEGO member work at aal1', async () => {
    const analist = await signInAtAal1(portaal, 'analist@dego.nl', DEMO_PASSWORD);
    const whoami = await api(portaal, analist.browser, 'GET', '/users/whoami');
    expect(whoami.body).toMatchObject({
      aal2Required: false,
      authenticator_assurance_level: 'aal1',
      activeOrg: { id: 'dego' },
    });
    const services = await api(portaal, analist.browser, 'GET', '/services');
    expect(services.status).toBe(200);
    expect(services.body.services.map((s: { id: string }) => s.id)).toEqual(['wijkmonitor', 'begrotingsvergelijker']);
  });
});
