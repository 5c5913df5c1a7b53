import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { registerErrorHandling } from '../http/error-handler.js';
import { createIdentityProvider } from '../provider.js';
import type { IdpServices } from '../services.js';
import type { SessionRecord } from '../sessions/session-repository.js';
import { answer } from './answer.js';
import { insertFlow, newFlow, type Flow, type FlowType } from './flow.js';
import { creationContext, type FlowContext } from './flow-context.js';
import type { IssuedSession, Outcome } from './outcome.js';
import { testIdpConfig } from '../test-config.js';

// The one module that answers differently per mode, tested per outcome and mode in-process (Fastify inject).

const config = testIdpConfig({ hashConcurrency: 1, hashQueueLimit: 1 });

let services: IdpServices;
let app: FastifyInstance;
/** The outcome the next request's step returns, the flow type its route creates, what the step records first. */
let next: { outcome: Outcome; type: FlowType; effects?: (ctx: FlowContext) => void };

beforeAll(async () => {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  services = createIdentityProvider({ db, config, clock: { now: () => new Date() }, log: Fastify().log }).services;
  app = Fastify();
  await app.register(cookie);
  registerErrorHandling(app, services.ctx);
  app.get('/', (request, reply) =>
    answer(creationContext({ services, request, reply }, 'login', next.type), async (ctx) => {
      next.effects?.(ctx);
      return next.outcome;
    }),
  );
});

afterAll(async () => {
  await app.close();
  await services.ctx.db.close();
});

const MODES = {
  redirect: { type: 'browser', accept: 'text/html' },
  json: { type: 'browser', accept: 'application/json' },
  api: { type: 'api', accept: 'application/json' },
} as const;

async function answered(
  outcome: Outcome,
  mode: keyof typeof MODES,
  method: 'GET' | 'HEAD' = 'GET',
  effects?: (ctx: FlowContext) => void,
) {
  next = { outcome, type: MODES[mode].type, effects };
  return app.inject({ method, url: '/', headers: { accept: MODES[mode].accept } });
}

async function storedFlow(type: FlowType = 'browser'): Promise<Flow> {
  const flow = newFlow(services.ctx, config.lifespans.flowMs, {
    kind: 'recovery',
    type,
    requestUrl: 'http://portaal.test/self-service/recovery/browser',
    csrfToken: Buffer.alloc(32, 7).toString('base64'),
  });
  await insertFlow(services.ctx.db.kysely, flow);
  return flow;
}

const issued = (): IssuedSession => {
  const now = new Date();
  const session = { id: 'session', expiresAt: new Date(now.getTime() + 3_600_000).toISOString() } as SessionRecord;
  return { session, token: 'ory_st_token', identity: {} as IssuedSession['identity'], now };
};

const NO_CACHE = 'private, no-cache, no-store, must-revalidate';

describe('answer', () => {
  it('shows a flow: its screen to a browser, the flow as JSON with its status to SPAs and API clients', async () => {
    const flow = await storedFlow();
    const html = await answered({ kind: 'flow', flow, status: 400 }, 'redirect');
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe(`http://portaal.test/recovery?flow=${flow.id}`);
    expect(html.headers['cache-control']).toBe(NO_CACHE);
    expect(html.body).toBe('');
    const json = await answered({ kind: 'flow', flow, status: 400 }, 'json');
    expect(json.statusCode).toBe(400);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json()).toMatchObject({ id: flow.id, type: 'browser', state: 'choose_method' });
    const elsewhere = await answered(
      { kind: 'flow', flow, status: 200, browserTo: 'http://portaal.test/x' },
      'redirect',
    );
    expect(elsewhere.headers.location).toBe('http://portaal.test/x');
  });

  it('tells JSON clients of a replacing flow as the outcome says, and sends browsers to it', async () => {
    const replacement = await storedFlow();
    const now = new Date();
    const expiredAt = new Date(now.getTime() - 120_000);
    const expired: Outcome = { kind: 'replaced', replacement, tell: { as: 'expired', expiredAt, now } };
    expect((await answered(expired, 'redirect')).headers.location).toBe(
      `http://portaal.test/recovery?flow=${replacement.id}`,
    );
    const gone = await answered(expired, 'api');
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ error: { id: 'self_service_flow_expired' }, use_flow_id: replacement.id });
    const replaced = await answered({ kind: 'replaced', replacement, tell: { as: 'replaced' } }, 'json');
    expect(replaced.json()).toMatchObject({ error: { id: 'self_service_flow_replaced' } });
    const seeOther = await answered({ kind: 'replaced', replacement, tell: { as: 'see_other' } }, 'json');
    expect(seeOther.statusCode).toBe(303);
    expect(seeOther.headers.location).toBe(`http://portaal.test/self-service/recovery/flows?id=${replacement.id}`);
  });

  it('completes: the token to API clients, the cookie and where to go next to browsers', async () => {
    const outcome: Outcome = {
      kind: 'completed',
      body: { session: {} },
      returnUrl: 'http://portaal.test/next',
      issued: issued(),
    };
    const api = await answered(outcome, 'api');
    expect(api.body).toBe('{"session_token":"ory_st_token","session":{},"continue_with":null}');
    expect(api.cookies).toEqual([]);
    const spa = await answered(outcome, 'json');
    expect(spa.body).toBe(
      '{"session":{},"continue_with":[{"action":"redirect_browser_to",' +
        '"redirect_browser_to":"http://portaal.test/next"}]}',
    );
    expect(spa.cookies.find((c) => c.name === 'ory_kratos_session')).toMatchObject({
      value: 'ory_st_token',
      maxAge: 3600,
    });
    const html = await answered(outcome, 'redirect');
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe('http://portaal.test/next');
    expect(html.cookies.map((c) => c.name)).toEqual(['ory_kratos_session']);
  });

  it('continues elsewhere: a 303 or a 422 with the cookie for browsers, the API answer for API flows', async () => {
    const flow = await storedFlow();
    const outcome: Outcome = {
      kind: 'continue_elsewhere',
      flow,
      issued: issued(),
      to: 'http://portaal.test/settings?flow=1',
      forApi: { kind: 'json', status: 200, body: { api: true } },
    };
    const html = await answered(outcome, 'redirect');
    expect(html.statusCode).toBe(303);
    expect(html.cookies.map((c) => c.name)).toEqual(['ory_kratos_session']);
    const spa = await answered(outcome, 'json');
    expect(spa.statusCode).toBe(422);
    expect(spa.json()).toMatchObject({
      error: { id: 'browser_location_change_required' },
      redirect_browser_to: 'http://portaal.test/settings?flow=1',
    });
    expect(spa.cookies.map((c) => c.name)).toEqual(['ory_kratos_session']);
    // An API flow gets its answer even where the route answers browsers only (the recovery link of a mail).
    const apiFlow = await storedFlow('api');
    const api = await answered({ ...outcome, flow: apiFlow }, 'redirect');
    expect(api.statusCode).toBe(200);
    expect(api.json()).toEqual({ api: true });
    expect(api.cookies).toEqual([]);
  });

  it('shows browsers their errors on the error page; everyone else and HEAD requests get the envelope', async () => {
    const outcome: Outcome = { kind: 'error', error: kratosErrors.flowNotFound() };
    const html = await answered(outcome, 'redirect');
    expect(html.statusCode).toBe(303);
    const id = new URL(html.headers.location as string).searchParams.get('id')!;
    expect(html.headers.location).toBe(`http://portaal.test/error?id=${id}`);
    const row = await services.ctx.db.kysely
      .selectFrom('selfservice_errors')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.error)).toMatchObject({ code: 404, message: 'Unable to locate the resource' });
    expect((await answered(outcome, 'redirect', 'HEAD')).statusCode).toBe(404);
    expect((await answered(outcome, 'json')).statusCode).toBe(404);
  });

  it('redirects whatever the mode when told so, and answers 204 without a body', async () => {
    for (const mode of ['redirect', 'json', 'api'] as const) {
      const response = await answered({ kind: 'redirect', to: 'http://portaal.test/x', status: 302 }, mode);
      expect([response.statusCode, response.headers.location]).toEqual([302, 'http://portaal.test/x']);
    }
    const empty = await answered({ kind: 'no_content' }, 'json');
    expect([empty.statusCode, empty.body]).toEqual([204, '']);
  });

  it("writes the step's cookies and headers onto the answer, also when the step then fails", async () => {
    const record = (ctx: FlowContext) => {
      ctx.effects.setSession('ory_st_new', new Date(Date.now() + 60_000), new Date());
      ctx.effects.header('X-Session-Token', 'ory_st_new');
    };
    const done = await answered({ kind: 'no_content' }, 'json', 'GET', record);
    expect(String(done.headers['set-cookie'])).toContain('ory_kratos_session=ory_st_new');
    expect(done.headers['x-session-token']).toBe('ory_st_new');
    const failing = (ctx: FlowContext) => {
      record(ctx);
      throw kratosErrors.sessionInactive();
    };
    const failed = await answered({ kind: 'no_content' }, 'json', 'GET', failing);
    expect(failed.statusCode).toBe(401);
    expect(String(failed.headers['set-cookie'])).toContain('ory_kratos_session=ory_st_new');
  });
});
