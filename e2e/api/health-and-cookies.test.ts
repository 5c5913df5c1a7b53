import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordIdentity } from '../support/identities.js';
import { csrfTokenOf, identityApi } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

let portaal: Portaal;
let behindTls: Portaal;
let hostCookie: Portaal;
let domainCookie: Portaal;

/** A GET with the path exactly as given (fetch would normalise `//admin`), without following redirects. */
function rawGet(base: string, path: string): Promise<{ status: number; location: string | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      })
      .on('error', reject);
  });
}
beforeAll(async () => {
  portaal = await startPortaal();
  behindTls = await startPortaal({
    env: { PUBLIC_URL: 'https://portaal.example.nl', SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang' },
  });
  hostCookie = await startPortaal({
    env: {
      PUBLIC_URL: 'https://portaal.example.nl',
      SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang',
      SESSION_COOKIE_NAME: '__Host-portaal_sessie',
    },
  });
  domainCookie = await startPortaal({
    env: {
      PUBLIC_URL: 'https://portaal.gemeente.example',
      SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang',
      SESSION_COOKIE_DOMAIN: 'gemeente.example',
    },
  });
});
afterAll(async () => {
  await portaal?.stop();
  await behindTls?.stop();
  await hostCookie?.stop();
  await domainCookie?.stop();
});

/** A browser sign-in by hand: the https cookies would not travel over this test's plain http on their own. */
async function signInByHand(target: Portaal): Promise<Response> {
  const user = await createPasswordIdentity(identityApi(target.adminUrl));
  const created = await fetch(`${target.publicUrl}/self-service/login/browser`, {
    headers: { accept: 'application/json' },
  });
  const csrfCookie = created.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('csrf_token_'))!;
  const flow = await created.json();
  return fetch(`${target.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', cookie: csrfCookie },
    body: JSON.stringify({
      method: 'password',
      identifier: user.email,
      password: user.password,
      csrf_token: csrfTokenOf(flow),
    }),
  });
}

describe('health and metrics', () => {
  it('answers alive and ready on the admin listener', async () => {
    for (const path of ['/health/alive', '/health/ready']) {
      const response = await fetch(`${portaal.adminUrl}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    }
  });

  it('serves Prometheus metrics with the request histogram', async () => {
    await fetch(`${portaal.publicUrl}/self-service/login/api`);
    const response = await fetch(`${portaal.adminUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE portaal_http_request_duration_seconds histogram');
    expect(text).toMatch(/portaal_http_request_duration_seconds_count\{[^}]*\} \d+/);
    expect(text).toContain('# TYPE portaal_sign_ins_total counter');
  });

  it('keeps the admin API off the public listener (307 to the admin URL)', async () => {
    const response = await fetch(`${portaal.publicUrl}/admin/identities`, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${portaal.adminUrl}/admin/identities`);
  });

  it.each(['//admin/identities', '///admin/identities?x=1', '/\\admin/identities'])(
    'sends %s to the admin listener, never to another host',
    async (path) => {
      const { status, location } = await rawGet(portaal.publicUrl, path);
      if (status === 307) expect(new URL(location!).origin).toBe(portaal.adminUrl);
      else expect(status).toBe(404);
    },
  );
});

describe('security headers', () => {
  it('sends nosniff on every answer: JSON, the web app, assets and errors', async () => {
    for (const path of ['/sessions/whoami', '/api/config', '/login', '/self-service/login/api', '/nope.json']) {
      const response = await fetch(`${portaal.publicUrl}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    expect((await fetch(`${portaal.adminUrl}/health/ready`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends Strict-Transport-Security for a year only when the public URL is https', async () => {
    const secure = await fetch(`${behindTls.publicUrl}/api/config`);
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await fetch(`${behindTls.publicUrl}/login`)).headers.get('strict-transport-security')).toMatch(
      /^max-age=31536000/,
    );
    expect((await fetch(`${portaal.publicUrl}/api/config`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('cookies', () => {
  it('names the CSRF cookie after the public URL and marks it HttpOnly, SameSite=Lax', async () => {
    const response = await fetch(`${portaal.publicUrl}/self-service/login/browser`, {
      headers: { accept: 'application/json' },
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('csrf_token_'));
    expect(cookie).toMatch(/^csrf_token_[0-9a-f]{64}=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('names the session cookie as SESSION_COOKIE_NAME says, so that a deployment can use __Host-', async () => {
    const answer = await signInByHand(hostCookie);
    expect(answer.status).toBe(200);
    const session = answer.headers.getSetCookie().find((c) => c.startsWith('__Host-portaal_sessie='));
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).toMatch(/Secure/);
    expect(session).not.toMatch(/Domain=/i);
    const token = /^__Host-portaal_sessie=([^;]+)/.exec(session!)![1];
    const whoami = await fetch(`${hostCookie.publicUrl}/sessions/whoami`, {
      headers: { cookie: `__Host-portaal_sessie=${token}` },
    });
    expect(whoami.status).toBe(200);
    expect(
      (await fetch(`${hostCookie.publicUrl}/sessions/whoami`, { headers: { cookie: `ory_kratos_session=${token}` } }))
        .status,
    ).toBe(401);
  });

  it('shares the session cookie with SESSION_COOKIE_DOMAIN, and clears it there on logout', async () => {
    const answer = await signInByHand(domainCookie);
    expect(answer.status).toBe(200);
    const session = answer.headers.getSetCookie().find((c) => c.startsWith('ory_kratos_session='));
    expect(session).toMatch(/; Domain=gemeente\.example(;|$)/i);
    const cookie = session!.split(';')[0]!;
    const logout = await fetch(`${domainCookie.publicUrl}/self-service/logout/browser`, {
      headers: { accept: 'application/json', cookie },
    });
    const { logout_token: token } = await logout.json();
    const done = await fetch(`${domainCookie.publicUrl}/self-service/logout?token=${token}`, {
      headers: { accept: 'application/json', cookie },
    });
    expect(done.status).toBe(204);
    const cleared = done.headers.getSetCookie().find((c) => c.startsWith('ory_kratos_session='));
    expect(cleared).toMatch(/; Domain=gemeente\.example(;|$)/i);
    expect(cleared).toMatch(/^ory_kratos_session=;.*Max-Age=(0|-1)(;|$)/i);
  });

  it('marks cookies Secure when the public URL is https', async () => {
    const response = await fetch(`${behindTls.publicUrl}/self-service/login/browser`, {
      headers: { accept: 'application/json' },
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('csrf_token_'));
    expect(cookie).toMatch(/Secure/i);
  });
});
