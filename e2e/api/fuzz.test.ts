import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, identityApi, newBrowser, newNativeClient, type Browser } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { loginWithPassword } from '../support/flows.js';

// Malformed, mistyped, oversized and unknown input at every submit endpoint: each answer is a contract-shaped 4xx
// (or a normal flow answer), never a 5xx, and a refused request changes nothing.

let portaal: Portaal;
let browser: Browser;
let sessionToken: string;
beforeAll(async () => {
  portaal = await startPortaal({ env: { REGISTRATION_ENABLED: 'true' } });
  const identities = identityApi(portaal.adminUrl);
  const user = await createPasswordIdentity(identities);
  browser = newBrowser(portaal.publicUrl);
  await loginWithPassword(browser, user.email, user.password);
  const native = newNativeClient(portaal.publicUrl);
  const flow = await native.createNativeLoginFlow({});
  sessionToken = (
    await native.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
    })
  ).session_token!;
});
afterAll(async () => {
  await portaal?.stop();
});

/** Everything a refused request must leave alone, read through the admin API. */
async function snapshot(): Promise<string> {
  const response = await fetch(
    `${portaal.adminUrl}/admin/identities?page_size=500&include_credential=password&include_credential=totp` +
      '&include_credential=lookup_secret',
  );
  const identities = (await response.json()) as { id: string }[];
  const sessions = await Promise.all(
    identities.map(async (i) => {
      const list = (await (await fetch(`${portaal.adminUrl}/admin/identities/${i.id}/sessions`)).json()) as {
        id: string;
        authentication_methods: unknown;
      }[];
      return list.map((s) => [s.id, s.authentication_methods]);
    }),
  );
  return JSON.stringify({ identities, sessions });
}

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(70_000)),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);
const fieldNames = fc.constantFrom(
  'method',
  'identifier',
  'password',
  'csrf_token',
  'traits',
  'traits.email',
  'email',
  'code',
  'totp_code',
  'lookup_secret',
  'totp_unlink',
  'lookup_secret_regenerate',
  'lookup_secret_confirm',
  'lookup_secret_reveal',
  'lookup_secret_disable',
  'transient_payload',
  'resend',
  '__proto__',
  'constructor',
  'unbekannt',
);
const methods = fc.constantFrom(
  'password',
  'code',
  'link',
  'totp',
  'lookup_secret',
  'profile',
  'oidc',
  'webauthn',
  '',
  'PASSWORD',
  '../',
);
const structured = fc
  .record(
    { method: fc.oneof(methods, scalar), fields: fc.dictionary(fieldNames, scalar, { maxKeys: 6 }) },
    { requiredKeys: ['fields'] },
  )
  .map(({ method, fields }) => ({ ...fields, ...(method === undefined ? {} : { method }) }));

const bodies = fc.oneof(
  fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{', '{"method":', '[]', 'null', '"x"', '{"a":1}}')),
  }),
  fc.record({ kind: fc.constant('json' as const), value: fc.oneof(structured, fc.jsonValue({ maxDepth: 3 })) }),
  fc.record({ kind: fc.constant('form' as const), value: structured }),
  fc.record({
    kind: fc.constant('huge' as const),
    text: fc.constant(JSON.stringify({ method: 'password', password: 'y'.repeat(400_000) })),
  }),
);

type FuzzBody = typeof bodies extends fc.Arbitrary<infer T> ? T : never;

function encode(body: FuzzBody, csrf: string | undefined): { contentType?: string; payload: string } {
  if (body.kind === 'raw') return { contentType: 'application/json', payload: body.text };
  if (body.kind === 'huge') return { contentType: 'application/json', payload: body.text };
  const value = body.value;
  const withCsrf =
    csrf && value && typeof value === 'object' && !Array.isArray(value) ? { csrf_token: csrf, ...value } : value;
  if (body.kind === 'json') return { contentType: 'application/json', payload: JSON.stringify(withCsrf) };
  const form = new URLSearchParams();
  for (const [key, v] of Object.entries((withCsrf ?? {}) as Record<string, unknown>))
    form.append(key, typeof v === 'string' ? v : JSON.stringify(v));
  return { contentType: 'application/x-www-form-urlencoded', payload: form.toString() };
}

function expectContractShape(status: number, text: string) {
  expect(status, text.slice(0, 300)).toBeLessThan(500);
  if (status < 400) return;
  const body = JSON.parse(text) as {
    error?: { code: number; status: string; message: string };
    id?: string;
    ui?: { nodes: unknown[] };
  };
  if (body.error) {
    expect(body.error.code).toBe(status);
    expect(typeof body.error.status).toBe('string');
    expect(typeof body.error.message).toBe('string');
  } else {
    expect(status).toBe(400);
    expect(typeof body.id).toBe('string');
    expect(Array.isArray(body.ui?.nodes)).toBe(true);
  }
}

type Kind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

async function newFlow(kind: Kind, mode: 'browser' | 'api', client: Browser): Promise<{ id: string; csrf?: string }> {
  if (mode === 'api') {
    const headers: Record<string, string> = kind === 'settings' ? { 'X-Session-Token': sessionToken } : {};
    const response = await fetch(`${portaal.publicUrl}/self-service/${kind}/api`, {
      headers: { accept: 'application/json', ...headers },
    });
    return { id: ((await response.json()) as { id: string }).id };
  }
  const response = await client.fetch(`${portaal.publicUrl}/self-service/${kind}/browser`, {
    headers: { accept: 'application/json' },
  });
  const flow = (await response.json()) as { id: string; ui: { nodes: any[] } };
  return { id: flow.id, csrf: csrfTokenOf(flow) };
}

const kinds: Kind[] = ['login', 'registration', 'recovery', 'verification', 'settings'];

describe.each(kinds)('fuzzing the %s submit endpoint', (kind) => {
  it.each(['browser', 'api'] as const)('in %s mode', async (mode) => {
    // Only settings needs the signed-in browser; the other flows refuse one (session_already_available).
    const client = kind === 'settings' ? browser : newBrowser(portaal.publicUrl);
    const flow = await newFlow(kind, mode, client);
    const flowIds = fc.oneof(
      { weight: 6, arbitrary: fc.constant(flow.id) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
    );
    await fc.assert(
      fc.asyncProperty(flowIds, bodies, fc.boolean(), async (flowId, body, withCsrf) => {
        const before = await snapshot();
        const { contentType, payload } = encode(body, withCsrf ? flow.csrf : undefined);
        const headers: Record<string, string> = { accept: 'application/json' };
        if (contentType) headers['content-type'] = contentType;
        if (mode === 'api' && kind === 'settings') headers['X-Session-Token'] = sessionToken;
        const send = mode === 'browser' ? client.fetch : fetch;
        const response = await send(`${portaal.publicUrl}/self-service/${kind}?flow=${encodeURIComponent(flowId)}`, {
          method: 'POST',
          headers,
          body: payload,
          redirect: 'manual',
        });
        const text = await response.text();
        expectContractShape(response.status, text);
        if (response.status >= 400) expect(await snapshot()).toBe(before);
      }),
      { numRuns: 40 },
    );
  });
});

describe('unknown and malformed flow ids on the flow getters', () => {
  it.each(kinds)('GET /self-service/%s/flows answers 4xx with an envelope', async (kind) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uuid(), fc.string({ maxLength: 80 })), async (id) => {
        const response = await browser.fetch(
          `${portaal.publicUrl}/self-service/${kind}/flows?id=${encodeURIComponent(id)}`,
          {
            headers: { accept: 'application/json' },
          },
        );
        const text = await response.text();
        expect(response.status).toBeGreaterThanOrEqual(400);
        expectContractShape(response.status, text);
      }),
      { numRuns: 25 },
    );
  });
});

describe('fuzzing logout', () => {
  it('refuses unknown logout tokens without ending the session', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 100 }), fc.base64String({ maxLength: 120 })), async (token) => {
        const response = await browser.fetch(
          `${portaal.publicUrl}/self-service/logout?token=${encodeURIComponent(token)}`,
          {
            headers: { accept: 'application/json' },
            redirect: 'manual',
          },
        );
        expectContractShape(response.status, await response.text());
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect((await browser.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).toBe(200);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses malformed API logout bodies without ending the session', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const { contentType, payload } = encode(body, undefined);
        const response = await fetch(`${portaal.publicUrl}/self-service/logout/api`, {
          method: 'DELETE',
          headers: { accept: 'application/json', ...(contentType ? { 'content-type': contentType } : {}) },
          body: payload,
        });
        expectContractShape(response.status, await response.text());
        expect(response.status).toBeGreaterThanOrEqual(400);
        const whoami = await fetch(`${portaal.publicUrl}/sessions/whoami`, {
          headers: { 'X-Session-Token': sessionToken },
        });
        expect(whoami.status).toBe(200);
      }),
      { numRuns: 30 },
    );
  });
});
