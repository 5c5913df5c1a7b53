import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from './db/database-unavailable.js';
import { createIdentityWithPassword } from './identities/create-identity.js';
import type { IdentityProvider } from './provider.js';
import { inProcessProvider, type InProcessProvider } from './test-provider.js';

// The provider's Fastify plugins in-process (in-memory SQLite, Fastify inject): each is encapsulated with Kratos'
// error handler, and the listener's own error handling answers what no plugin serves
// (docs/kratos-compatibility.md#the-error-envelope).

let inProcess: InProcessProvider;
let provider: IdentityProvider;
let identityId: string;

beforeAll(async () => {
  inProcess = await inProcessProvider();
  provider = inProcess.provider;
  identityId = await createIdentityWithPassword(provider.services, { email: 'anne@voorbeeldstad.nl' });
});

afterAll(() => inProcess.close());

/** Routes beside the provider's: a fault of their own and an unreachable database. */
function beside(app: FastifyInstance) {
  app.get('/beside/broken', async () => {
    throw new Error('a fault outside the provider');
  });
  app.get('/beside/unreachable', async () => {
    throw new DatabaseUnavailableError(new Error('ECONNREFUSED'));
  });
}

/** A listener as the server builds it: cookies, the listener's error handling, then the plugin and other routes. */
const listener = (plugin: 'publicApi' | 'adminApi' | 'mailbox', options = { listenerErrors: true }) =>
  inProcess.listener(plugin, { ...options, beside });

const ERROR_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'private, no-cache, no-store, must-revalidate',
};
const NOT_FOUND = { error: { code: 404, status: 'Not Found', message: 'Not Found' } };
const NO_ROWS = { error: { code: 404, status: 'Not Found', message: 'Unable to locate the resource' } };
const JSON_ACCEPT = { accept: 'application/json' };

describe('the public API plugin', () => {
  it('serves the Kratos public routes and answers their errors in the envelope', async () => {
    const app = await listener('publicApi');
    expect((await app.inject({ url: '/schemas' })).statusCode).toBe(200);

    const schema = await app.inject({ url: '/schemas/other' });
    expect(schema.statusCode).toBe(404);
    expect(schema.headers).toMatchObject(ERROR_HEADERS);
    expect(schema.json()).toEqual(NO_ROWS);

    const aal = await app.inject({ url: '/self-service/login/browser?aal=aal3', headers: JSON_ACCEPT });
    expect(aal.statusCode).toBe(400);
    expect(aal.json().error.reason).toBe(
      'Unable to parse AuthenticationMethod Assurance Level (AAL): expected one of [aal1, aal2] but got aal3',
    );

    const returnTo = await app.inject({
      url: '/self-service/login/browser?return_to=https://evil.example/',
      headers: JSON_ACCEPT,
    });
    expect(returnTo.statusCode).toBe(400);
    expect(returnTo.headers['ory-error-id']).toBe('self_service_flow_return_to_forbidden');

    const exchange = await app.inject({ url: '/sessions/token-exchange' });
    expect(exchange.json()).toEqual({
      error: {
        code: 404,
        status: 'Not Found',
        reason: 'no session token exchange code found',
        message: 'The requested resource could not be found',
      },
    });
  });

  it('serves the WebAuthn script with its type, a validator and the integrity the nodes name', async () => {
    const app = await listener('publicApi');
    const script = await app.inject({ url: '/.well-known/ory/webauthn.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, no-cache');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    for (const name of [
      'oryWebAuthnRegistration',
      'oryWebAuthnLogin',
      'oryPasskeyLogin',
      'oryPasskeyLoginAutocompleteInit',
      'oryPasskeyRegistration',
      'oryPasskeySettingsRegistration',
    ])
      expect(script.body).toContain(name.slice(3));
    const integrity = `sha512-${createHash('sha512').update(script.body).digest('base64')}`;
    const login = (await app.inject({ url: '/self-service/login/browser', headers: JSON_ACCEPT })).json();
    const node = login.ui.nodes.find((n: { attributes: { id?: string } }) => n.attributes.id === 'webauthn_script');
    expect(node.attributes.integrity).toBe(integrity);
    const again = await app.inject({
      url: '/.well-known/ory/webauthn.js',
      headers: { 'if-none-match': String(script.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses a browser flow submitted without its CSRF cookie, and an API flow with an Origin', async () => {
    const app = await listener('publicApi');
    const browser = (await app.inject({ url: '/self-service/login/browser', headers: JSON_ACCEPT })).json();
    const csrf = await app.inject({
      method: 'POST',
      url: `/self-service/login?flow=${browser.id}`,
      headers: JSON_ACCEPT,
      payload: { method: 'password', identifier: 'anne@voorbeeldstad.nl', password: 'x', csrf_token: 'x' },
    });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.headers['ory-error-id']).toBe('security_csrf_violation');
    expect(csrf.json().error.details.reject_reason).toBe('The HTTP Cookie Header is empty or not set.');

    const api = (await app.inject({ url: '/self-service/login/api' })).json();
    const origin = await app.inject({
      method: 'POST',
      url: `/self-service/login?flow=${api.id}`,
      headers: { ...JSON_ACCEPT, origin: 'http://portaal.test' },
      payload: { method: 'password', identifier: 'anne@voorbeeldstad.nl', password: 'x' },
    });
    expect(origin.statusCode).toBe(400);
    expect(origin.json().error.reason).toMatch(/^The HTTP Request Header included the "Origin" key/);
  });

  it('refuses a logout without a token and an API logout with an unknown session token', async () => {
    const app = await listener('publicApi');
    const missing = await app.inject({ url: '/self-service/logout', headers: JSON_ACCEPT });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.reason).toBe('Please include a token in the URL query.');
    const unknown = await app.inject({
      method: 'DELETE',
      url: '/self-service/logout/api',
      payload: { session_token: 'ory_st_unknown' },
    });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().error.reason).toBe(
      'The provided Ory Session Token could not be found, is invalid, or otherwise malformed.',
    );
  });

  it('answers an unreadable body with its 4xx status', async () => {
    const app = await listener('publicApi');
    const answer = await app.inject({
      method: 'POST',
      url: '/self-service/login?flow=00000000-0000-4000-8000-000000000000',
      headers: { 'content-type': 'application/json' },
      payload: '{"method":',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.reason).toBe('Unable to decode the request body as JSON.');
  });

  it('keeps its error handler to itself: routes beside it answer as their listener does', async () => {
    const bare = await listener('publicApi', { listenerErrors: false });
    const fastifyOwn = await bare.inject({ url: '/beside/broken' });
    expect(fastifyOwn.statusCode).toBe(500);
    expect(fastifyOwn.json()).not.toHaveProperty('error.status');
    expect((await bare.inject({ url: '/schemas/other' })).json()).toEqual(NO_ROWS);
  });

  it('needs the listener to read cookies', async () => {
    const app = Fastify();
    await expect(app.register(provider.publicApi)).rejects.toThrow(/@fastify\/cookie/);
    await app.close();
  });
});

describe("the listener's error handling", () => {
  it('answers unknown paths, faults and an unreachable database of other routes in the envelope', async () => {
    const app = await listener('publicApi');
    const unknown = await app.inject({ method: 'POST', url: '/no/such/path' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(unknown.body).toBe(JSON.stringify(NOT_FOUND));

    const broken = await app.inject({ url: '/beside/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.headers).toMatchObject(ERROR_HEADERS);
    expect(broken.body).not.toContain('a fault outside the provider');

    const unreachable = await app.inject({ url: '/beside/unreachable' });
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.headers['retry-after']).toBe('5');
    expect(unreachable.json().error.reason).toBe('The database is unavailable, please try again in a moment.');
  });
});

describe('the admin API plugin', () => {
  it('answers unknown identities, crafted page tokens, bad patches and credentials in the envelope', async () => {
    const app = await listener('adminApi');
    expect((await app.inject({ url: '/admin/identities/not-a-uuid' })).json()).toEqual(NO_ROWS);
    expect((await app.inject({ url: `/admin/identities/${identityId}` })).statusCode).toBe(200);

    const token = await app.inject({ url: '/admin/identities?page_token=crafted' });
    expect(token.statusCode).toBe(400);
    expect(token.json().error.reason).toBe('The page token is invalid, do not craft your own page tokens');

    const patch = await app.inject({ method: 'PATCH', url: `/admin/identities/${identityId}`, payload: {} });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.reason).toBe('failed to apply JSON patch');

    const credential = await app.inject({ method: 'DELETE', url: `/admin/identities/${identityId}/credentials/totp` });
    expect(credential.statusCode).toBe(404);
    expect(credential.json()).toEqual({
      error: {
        code: 404,
        status: 'Not Found',
        reason: 'You tried to remove a credential which does not exist.',
        message: 'Unable to locate the resource',
      },
    });

    const recovery = await app.inject({
      method: 'POST',
      url: '/admin/recovery/code',
      payload: { identity_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(recovery.statusCode).toBe(404);
    expect(recovery.json().error.reason).toBe('could not find identity');
  });

  it('serves the development mailbox without SMTP', async () => {
    const app = await listener('adminApi');
    expect((await app.inject({ url: '/mail' })).statusCode).toBe(200);
  });
});

describe('the mailbox plugin', () => {
  it('serves only the development mailbox', async () => {
    const app = await listener('mailbox');
    expect((await app.inject({ url: '/mail' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin/identities' })).json()).toEqual(NOT_FOUND);
  });
});
