import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdpContext } from '../../context.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { registerErrorHandling } from '../../http/error-handler.js';
import { createIdentityWithPassword } from '../../identities/create-identity.js';
import { createIdentityProvider } from '../../provider.js';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { answer, type AnswerMode } from '../answer.js';
import { creationContext, submissionContext, type FlowContext } from '../flow-context.js';
import type { Outcome } from '../outcome.js';
import { createLoginFlow } from './create.js';
import { submitLoginFlow } from './submit.js';
import { testIdpConfig } from '../../test-config.js';

// In-process tests of the login steps and of the one place that answers them: an in-memory SQLite database, the
// provider's own services, and requests made with Fastify's inject (no listener, no HTTP client).

const config = testIdpConfig();

const EMAIL = 'anne@voorbeeldstad.nl';
const PASSWORD = 'een-lang-en-sterk-wachtwoord-42';

let app: FastifyInstance;
let services: IdpServices;
/** The steps' outcomes as the routes saw them, to test the steps and their answers at once. */
let outcomes: Outcome[];
/** How far the provider's clock runs ahead of the real one. */
let aheadMs = 0;

beforeEach(async () => {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  const log = Fastify().log;
  const ctx: IdpContext = { db, config, clock: { now: () => new Date(Date.now() + aheadMs) }, log };
  aheadMs = 0;
  const provider = createIdentityProvider(ctx);
  services = provider.services;
  await createIdentityWithPassword(services, { email: EMAIL, password: PASSWORD });
  outcomes = [];
  app = Fastify();
  await app.register(cookie);
  // The steps' own routes below sit beside the plugin, so the listener's error handling answers their errors.
  provider.registerListenerErrorHandling(app);
  await app.register(provider.publicApi);
  // The steps, answered as the routes answer them, with their outcome kept.
  const recorded = (step: (ctx: FlowContext) => Promise<Outcome>) => async (ctx: FlowContext) => {
    const outcome = await step(ctx);
    outcomes.push(outcome);
    return outcome;
  };
  app.get('/steps/login/:type', (request: FastifyRequest<{ Params: { type: 'browser' | 'api' } }>, reply) =>
    answer(creationContext({ services, request, reply }, 'login', request.params.type), recorded(createLoginFlow)),
  );
  app.post('/steps/login', async (request, reply) =>
    answer(await submissionContext({ services, request, reply }, 'login'), recorded(submitLoginFlow)),
  );
});

afterEach(async () => {
  await app.close();
  await services.ctx.db.close();
});

const csrfCookieOf = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((c) => c.name.startsWith('csrf_token_'));

/** A browser flow in SPA mode, and the Cookie header that carries its CSRF cookie (made now unless given). */
async function browserFlow(cookieHeader?: string): Promise<{ flow: Record<string, any>; cookieHeader: string }> {
  const response = await app.inject({
    url: '/steps/login/browser',
    headers: { accept: 'application/json', ...(cookieHeader ? { cookie: cookieHeader } : {}) },
  });
  if (cookieHeader) return { flow: response.json(), cookieHeader };
  const csrf = csrfCookieOf(response)!;
  return { flow: response.json(), cookieHeader: `${csrf.name}=${csrf.value}` };
}

const csrfTokenOf = (flow: Record<string, any>): string =>
  flow.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value;

describe('creating a login flow', () => {
  it.each<[string, 'browser' | 'api', string | undefined, AnswerMode]>([
    ['a browser asking for HTML', 'browser', 'text/html', 'redirect'],
    ['a single-page app', 'browser', 'application/json', 'json'],
    ['an API client', 'api', undefined, 'api'],
  ])('gives %s one outcome, the flow, answered for its mode', async (_who, type, accept, mode) => {
    const response = await app.inject({ url: `/steps/login/${type}`, headers: accept ? { accept } : {} });
    expect(outcomes).toHaveLength(1);
    const [outcome] = outcomes;
    expect(outcome).toMatchObject({ kind: 'flow', status: 200 });
    const flow = (outcome as Extract<Outcome, { kind: 'flow' }>).flow;
    expect(flow).toMatchObject({ kind: 'login', type, requestedAal: 'aal1', state: 'choose_method' });
    expect(response.headers['cache-control']).toBe('private, no-cache, no-store, must-revalidate');
    if (mode === 'redirect') {
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`http://portaal.test/login?flow=${flow.id}`);
      expect(csrfCookieOf(response)?.value).toBe(flow.csrfToken);
    } else {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: flow.id, type, requested_aal: 'aal1', organization_id: null });
      expect(csrfTokenOf(response.json()) === '').toBe(mode === 'api');
      expect(csrfCookieOf(response) === undefined).toBe(mode === 'api');
    }
  });

  it('offers passkeys on browser and API flows, on API flows without script or onclick (Kratos v26)', async () => {
    const passkeyNodes = (flow: Record<string, any>) =>
      flow.ui.nodes.filter((n: any) => n.group === 'passkey').map((n: any) => n.attributes.name);
    const { flow: browser } = await browserFlow();
    expect(passkeyNodes(browser)).toEqual(['passkey_login_trigger', 'passkey_login', 'passkey_challenge']);
    const api = (await app.inject({ url: '/steps/login/api' })).json();
    expect(passkeyNodes(api)).toEqual(['passkey_login_trigger', 'passkey_login', 'passkey_challenge']);
    expect(api.ui.nodes.some((n: any) => n.type === 'script')).toBe(false);
    const trigger = api.ui.nodes.find((n: any) => n.attributes.name === 'passkey_login_trigger').attributes;
    expect(trigger).toMatchObject({ onclickTrigger: 'oryPasskeyLogin' });
    expect(trigger.onclick).toBeUndefined();
    expect(api.ui.nodes.find((n: any) => n.attributes.name === 'identifier').attributes.autocomplete).toBe(
      'username webauthn',
    );
  });

  it('refuses an unknown aal with 400, and shows it on the error page to a browser', async () => {
    const json = await app.inject({ url: '/steps/login/browser?aal=aal3', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.reason).toContain('expected one of [aal1, aal2] but got aal3');
    const html = await app.inject({ url: '/steps/login/browser?aal=aal3', headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toMatch(/^http:\/\/portaal\.test\/error\?id=[0-9a-f-]{36}$/);
    expect(outcomes).toEqual([]);
  });
});

describe('submitting a login flow', () => {
  it('a wrong password is the flow again, stored, with message 4000006, as 400 or a 303 back to the form', async () => {
    const { flow, cookieHeader } = await browserFlow();
    const submit = (accept: string) =>
      app.inject({
        method: 'POST',
        url: `/steps/login?flow=${flow.id}`,
        headers: { accept, cookie: cookieHeader, 'content-type': 'application/json' },
        payload: {
          method: 'password',
          identifier: EMAIL,
          password: 'niet-het-wachtwoord',
          csrf_token: csrfTokenOf(flow),
        },
      });
    const json = await submit('application/json');
    expect(outcomes.at(-1)).toMatchObject({ kind: 'flow', status: 400, save: true });
    expect(json.statusCode).toBe(400);
    expect(json.json().ui.messages).toEqual([expect.objectContaining({ id: 4000006, type: 'error' })]);
    const stored = await app.inject({
      url: `/self-service/login/flows?id=${flow.id}`,
      headers: { cookie: cookieHeader, accept: 'application/json' },
    });
    expect(stored.json().ui.messages).toEqual([expect.objectContaining({ id: 4000006 })]);

    const html = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${flow.id}`,
      headers: { accept: 'text/html', cookie: cookieHeader, 'content-type': 'application/json; charset=utf-8' },
      payload: {
        method: 'password',
        identifier: EMAIL,
        password: 'niet-het-wachtwoord',
        csrf_token: csrfTokenOf(flow),
      },
    });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe(`http://portaal.test/login?flow=${flow.id}`);
  });

  it('completes the flow on the right password: session and cookie for an SPA, the token for API clients', async () => {
    const { flow, cookieHeader } = await browserFlow();
    const spa = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${flow.id}`,
      headers: { accept: 'application/json', cookie: cookieHeader, 'content-type': 'application/json' },
      payload: { method: 'password', identifier: EMAIL, password: PASSWORD, csrf_token: csrfTokenOf(flow) },
    });
    expect(outcomes.at(-1)).toMatchObject({ kind: 'completed', returnUrl: 'http://portaal.test/permissies' });
    expect(spa.statusCode).toBe(200);
    expect(Object.keys(spa.json())).toEqual(['session', 'continue_with']);
    expect(spa.json().continue_with).toEqual([
      { action: 'redirect_browser_to', redirect_browser_to: 'http://portaal.test/permissies' },
    ]);
    expect(spa.cookies.find((c) => c.name === 'ory_kratos_session')).toMatchObject({ httpOnly: true, path: '/' });

    const created = await app.inject({ url: '/steps/login/api' });
    const api = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${created.json().id}`,
      headers: { 'content-type': 'application/json' },
      payload: { method: 'password', identifier: EMAIL, password: PASSWORD },
    });
    expect(api.statusCode).toBe(200);
    expect(Object.keys(api.json())).toEqual(['session_token', 'session', 'continue_with']);
    expect(api.json().session_token).toMatch(/^ory_st_/);
    expect(api.json().continue_with).toBeNull();
    expect(api.cookies).toEqual([]);
  });

  it('a missing CSRF token is refused before any password is checked', async () => {
    const { flow, cookieHeader } = await browserFlow();
    const response = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${flow.id}`,
      headers: { accept: 'application/json', cookie: cookieHeader, 'content-type': 'application/json' },
      payload: { method: 'password', identifier: EMAIL, password: PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.id).toBe('security_csrf_violation');
    expect(outcomes).toHaveLength(1); // only the creation's
  });

  it('an unknown flow is 404 for JSON and the error page for a browser', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const json = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${id}`,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      payload: {},
    });
    expect(json.statusCode).toBe(404);
    const html = await app.inject({ method: 'POST', url: `/steps/login?flow=${id}`, headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toMatch(/\/error\?id=/);
  });
});

describe('the opening steps of a submission', () => {
  // A Content-Type of exactly `application/json` makes any submission a JSON one (Kratos' IsJSONRequest), so the
  // browser's submissions here say their charset.
  const FORM_LIKE_JSON = 'application/json; charset=utf-8';
  const submitWrongPassword = (flow: Record<string, any>, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/steps/login?flow=${flow.id}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: {
        method: 'password',
        identifier: EMAIL,
        password: 'niet-het-wachtwoord',
        csrf_token: csrfTokenOf(flow),
      },
    });

  it('replace an expired flow: 410 with the new flow for JSON, a 303 to its screen for a browser', async () => {
    const { flow, cookieHeader } = await browserFlow();
    aheadMs = config.lifespans.flowMs + 60_000;
    const json = await submitWrongPassword(flow, { accept: 'application/json', cookie: cookieHeader });
    const replaced = outcomes.at(-1) as Extract<Outcome, { kind: 'replaced' }>;
    expect(replaced).toMatchObject({ kind: 'replaced', tell: { as: 'expired' } });
    expect(replaced.replacement).toMatchObject({ kind: 'login', type: 'browser', state: 'choose_method' });
    expect(replaced.replacement.id).not.toBe(flow.id);
    expect(json.statusCode).toBe(410);
    expect(json.json()).toMatchObject({
      error: { id: 'self_service_flow_expired' },
      use_flow_id: replaced.replacement.id,
    });
    const html = await submitWrongPassword(flow, {
      accept: 'text/html',
      cookie: cookieHeader,
      'content-type': FORM_LIKE_JSON,
    });
    const again = outcomes.at(-1) as Extract<Outcome, { kind: 'replaced' }>;
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe(`http://portaal.test/login?flow=${again.replacement.id}`);
  });

  it('send a signed-in browser on without touching the flow; an SPA gets the flow with 4000001', async () => {
    const { flow, cookieHeader } = await browserFlow();
    const signIn = await app.inject({
      method: 'POST',
      url: `/steps/login?flow=${flow.id}`,
      headers: { accept: 'application/json', cookie: cookieHeader, 'content-type': 'application/json' },
      payload: { method: 'password', identifier: EMAIL, password: PASSWORD, csrf_token: csrfTokenOf(flow) },
    });
    const session = signIn.cookies.find((c) => c.name === 'ory_kratos_session')!;
    const signedIn = `${cookieHeader}; ory_kratos_session=${session.value}`;

    const { flow: other } = await browserFlow(cookieHeader);
    const html = await submitWrongPassword(other, {
      accept: 'text/html',
      cookie: signedIn,
      'content-type': FORM_LIKE_JSON,
    });
    expect(outcomes.at(-1)).toMatchObject({ kind: 'browser_redirect', otherwise: { kind: 'flow', save: true } });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe('http://portaal.test/permissies');
    const unchanged = await app.inject({
      url: `/self-service/login/flows?id=${other.id}`,
      headers: { accept: 'application/json', cookie: cookieHeader },
    });
    expect(unchanged.json().ui.messages).toBeUndefined();

    const spa = await submitWrongPassword(other, { accept: 'application/json', cookie: signedIn });
    expect(spa.statusCode).toBe(400);
    expect(spa.json().ui.messages).toEqual([expect.objectContaining({ id: 4000001 })]);
  });
});

describe('answering an outcome', () => {
  /** One route per outcome, answered in the mode the request negotiates. */
  async function answered(outcome: Outcome, accept: string, type: 'browser' | 'api' = 'browser') {
    const local = Fastify();
    await local.register(cookie);
    registerErrorHandling(local, services.ctx);
    local.get('/', (request: FastifyRequest, reply: FastifyReply) =>
      answer(creationContext({ services, request, reply }, 'login', type), async () => outcome),
    );
    try {
      return await local.inject({ url: '/', headers: { accept } });
    } finally {
      await local.close();
    }
  }

  it('sends a browser elsewhere but tells JSON clients the error of a browser redirect', async () => {
    const outcome: Outcome = {
      kind: 'browser_redirect',
      to: 'http://portaal.test/permissies',
      status: 302,
      otherwise: { kind: 'error', error: kratosErrors.sessionAlreadyAvailable('recovery') },
    };
    const html = await answered(outcome, 'text/html');
    expect(html.statusCode).toBe(302);
    expect(html.headers.location).toBe('http://portaal.test/permissies');
    const json = await answered(outcome, 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.json().error.id).toBe('session_already_available');
  });
});
