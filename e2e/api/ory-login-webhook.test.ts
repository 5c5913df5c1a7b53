import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, newBrowser } from '../support/ory.js';
import { renderLoginAuditTemplate } from '../support/login-audit-template.js';
import { DEMO_PASSWORD, api, auditEntries, portaalCli, signInAtAal2, type Person } from '../support/portal-users.js';

/**
 * Sign-ins on Ory reach the portal's audit log through Kratos' login web_hook (deploy/ory/kratos.yml), whose body
 * deploy/ory/login-audit.jsonnet makes. Always with the Ory adapter, whatever TEST_IDENTITY_BACKEND says: a second
 * `portaal` plays Kratos and Keto (e2e/support/deployment.ts), and the template is rendered here from what that
 * Kratos answered for a real sign-in, then posted as Kratos would.
 */
const SECRET = 'kratos-en-het-portaal-delen-dit-geheim-42';
const HOOK = '/api/hooks/kratos/login';

let deployment: Deployment;
let bea: Person;
/** The identity side's answers for medewerker's sign-in: the login flow and the session, as Kratos' JSON. */
let flow: { id: string; ui: { nodes: any[] } };
let session: { identity: { id: string } };
let body: Record<string, unknown>;

/** Posts to the hook as Kratos does: JSON, no Origin, the secret as a bearer token unless told otherwise. */
function callHook(payload: string | Record<string, unknown>, authorization: string | null = `Bearer ${SECRET}`) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Go-http-client/1.1' };
  if (authorization !== null) headers.authorization = authorization;
  return fetch(`${deployment.apiUrl}${HOOK}`, {
    method: 'POST',
    headers,
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

/** The portal side's audit log, every entry, through `portaal audit export`. */
function portalAudit(): Record<string, any>[] {
  const exported = portaalCli(deployment, ['audit', 'export'], 'portal');
  expect(exported.status, exported.stderr).toBe(0);
  return exported.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
const signIns = () => portalAudit().filter((entry) => String(entry.action).startsWith('sign_in.'));

beforeAll(async () => {
  deployment = await startDeployment({
    backend: 'ory',
    args: ['--demo'],
    portalEnv: { ORY_WEBHOOK_SECRET: SECRET },
  });
  bea = await signInAtAal2(deployment, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);

  // medewerker signs in with a password on the identity side, which plays Kratos; raw JSON, not the SDK's models.
  const browser = newBrowser(deployment.publicUrl);
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  flow = await (await browser.fetch(`${deployment.publicUrl}/self-service/login/browser`, { headers: json })).json();
  const submitted = await browser.fetch(`${deployment.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      method: 'password',
      identifier: 'medewerker@voorbeeldstad.nl',
      password: DEMO_PASSWORD,
      csrf_token: csrfTokenOf(flow),
    }),
  });
  expect(submitted.status).toBe(200);
  session = ((await submitted.json()) as { session: typeof session }).session;

  // Kratos' web_hook context after a login: the flow, the identity, the session and the request (deploy/ory/README.md).
  const ctx = {
    flow: { ...flow, active: 'password', state: 'passed_challenge' },
    identity: session.identity,
    session,
    request_headers: { 'User-Agent': ['Mozilla/5.0'], 'Content-Type': ['application/json'] },
    request_method: 'POST',
    request_url: `${deployment.publicUrl}/self-service/login?flow=${flow.id}`,
    request_cookies: { csrf_token_portaal: 'never-sent-on' },
  };
  body = await renderLoginAuditTemplate(ctx);
});
afterAll(async () => {
  await deployment?.stop();
});

describe("Kratos' login web_hook into the audit log", () => {
  it('is the body the template makes of a real sign-in, with nothing secret in it', () => {
    expect(body).toEqual({
      identity_id: session.identity.id,
      email: 'medewerker@voorbeeldstad.nl',
      flow_id: flow.id,
      method: 'password',
      aal: 'aal1',
      client_address: '127.0.0.1',
    });
    expect(JSON.stringify(body)).not.toMatch(/never-sent-on|ory_st_|Tulpen|csrf/);
  });

  it('writes the entry the embedded provider writes for that sign-in, which the administrator reads', async () => {
    expect(signIns()).toEqual([]);
    const lastSignIn = async () =>
      (await api(deployment, bea.browser, 'GET', '/users?email=medewerker%40voorbeeldstad.nl')).body[0].lastSignInAt;
    expect(await lastSignIn()).toBeNull();
    const before = Date.now();
    const answer = await callHook(body);
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
    expect(Date.parse(await lastSignIn())).toBeGreaterThanOrEqual(before - 1000);

    const entries = await auditEntries(deployment, bea.browser);
    const recorded = entries.filter((entry) => entry.action.startsWith('sign_in.'));
    expect(recorded).toEqual([
      expect.objectContaining({
        organisationId: 'voorbeeldstad',
        actorId: session.identity.id,
        actorEmail: 'medewerker@voorbeeldstad.nl',
        action: 'sign_in.password',
        objectId: session.identity.id,
        objectEmail: null,
        result: 'success',
        clientAddress: '127.0.0.1',
        details: { kratos_flow_id: flow.id, aal: 'aal1' },
      }),
    ]);

    // The identity side is the embedded provider and audited the same sign-in itself: the same entry but details.
    const embedded = portaalCli(deployment, ['audit', 'export'])
      .stdout.split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.action === 'sign_in.password' && entry.actorId === session.identity.id);
    expect(embedded).toHaveLength(1);
    // What is stored, without the words 'Logboek' adds to an entry it shows (label, outcome, sentence).
    const fields = ({
      id: _id,
      at: _at,
      details: _details,
      label,
      outcome,
      sentence,
      ...rest
    }: Record<string, unknown>) => rest;
    expect(fields(recorded[0])).toEqual(fields(embedded[0]));
    expect(recorded[0]).toMatchObject({
      outcome: 'gelukt',
      sentence: 'Mees Medewerker is ingelogd met het wachtwoord',
    });
  });

  it('refuses a call without the secret with 401 and writes nothing', async () => {
    const before = signIns().length;
    for (const authorization of [
      null,
      'Bearer',
      'Bearer niet-het-goede-geheim-maar-wel-lang-genoeg',
      `Bearer ${SECRET}x`,
      `Bearer ${SECRET.slice(0, -1)}`,
      `Basic ${Buffer.from(`portaal:${SECRET}`).toString('base64')}`,
      SECRET,
    ]) {
      const answer = await callHook(body, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect((await answer.json()).error).toMatchObject({ id: 'hook_unauthorized', code: 401 });
    }
    // Refused before the body is read: a malformed one gets 401 as well.
    expect((await callHook('{', null)).status).toBe(401);
    expect(signIns()).toHaveLength(before);
  });

  it('refuses a malformed body with 400 and writes nothing', async () => {
    const before = signIns().length;
    const { identity_id: _, ...withoutIdentity } = body;
    for (const payload of [
      '{',
      '[]',
      withoutIdentity,
      { ...body, identity_id: 'medewerker' },
      { ...body, flow_id: 42 },
      { ...body, method: 'sign_in.password; DROP' },
      { ...body, aal: 'aal9' },
      { ...body, client_address: 'x'.repeat(101) },
    ]) {
      const answer = await callHook(payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect((await answer.json()).error).toMatchObject({ id: 'invalid_request', code: 400 });
    }
    expect(signIns()).toHaveLength(before);
  });

  it('keeps every other write of the Users API under the Origin check', async () => {
    const created = await api(
      deployment,
      bea.browser,
      'POST',
      '/users',
      { traits: { email: 'zonder-origin@voorbeeldstad.nl', name: { first: 'Zonder', last: 'Origin' } } },
      { origin: null },
    );
    expect(created.status).toBe(403);
    expect(created.body.error.id).toBe('security_origin_mismatch');
    const elsewhere = await fetch(`${deployment.apiUrl}/api/hooks/kratos/registration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(elsewhere.status).toBe(403);
  });
});

describe('the hook without ORY_WEBHOOK_SECRET', () => {
  let unconfigured: Portaal;
  beforeAll(async () => {
    const { IDENTITY_BACKEND, KRATOS_PUBLIC_URL, KRATOS_ADMIN_URL, KETO_READ_URL, KETO_WRITE_URL } =
      deployment.portalEnv;
    unconfigured = await startPortaal({
      env: { IDENTITY_BACKEND, KRATOS_PUBLIC_URL, KRATOS_ADMIN_URL, KETO_READ_URL, KETO_WRITE_URL } as Record<
        string,
        string
      >,
    });
  });
  afterAll(async () => {
    await unconfigured?.stop();
  });

  it('does not exist: 404, and nothing is written', async () => {
    const answer = await fetch(`${unconfigured.publicUrl}${HOOK}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(404);
    expect((await answer.json()).error).toMatchObject({ id: 'not_found', code: 404 });
    const exported = portaalCli(unconfigured, ['audit', 'export']);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout.trim()).toBe('');
  });
});
