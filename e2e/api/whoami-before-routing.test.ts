import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../support/flows.js';
import { explained, identityApi, newNativeClient } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

// `GET /sessions/whoami` with a live session is answered before Fastify routes the request
// (packages/idp/src/sessions/whoami-before-routing.ts); every other case goes through the route. Both must give the
// same answer, byte for byte, with the same headers, and be counted in the metrics alike.

let portaal: Portaal;
let cookie: string;
let token: string;

beforeAll(async () => {
  portaal = await startPortaal({ env: { SHUTDOWN_DRAIN: '3s' } });
  const { user, browser } = await signedInPerson(portaal);
  cookie = await browser.jar.getCookieString(portaal.publicUrl);
  const native = newNativeClient(portaal.publicUrl);
  const flow = await native.createNativeLoginFlow({});
  token = (
    await explained(
      native.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
      }),
    )
  ).session_token!;
});
afterAll(() => portaal.stop());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request through node:http, which shows every header as sent (fetch hides `Connection`). */
function get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${portaal.publicUrl}${path}`, { headers, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

/** The headers that say something about the answer: not the date or the connection's bookkeeping. */
const meaningful = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));

/** The whoami answers counted with status 200 in the metrics. */
async function countedWhoamis(): Promise<number> {
  const metrics = await (await fetch(`${portaal.adminUrl}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find(
      (l) =>
        l.startsWith('portaal_http_request_duration_seconds_count{') &&
        l.includes('listener="public"') &&
        l.includes('route="/sessions/whoami"') &&
        l.includes('method="GET"') &&
        l.includes('status="200"'),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('whoami answered before routing', () => {
  it('gives the answer of the route, with the same headers, for a cookie, X-Session-Token and Bearer', async () => {
    const ways: Record<string, string>[] = [
      { cookie },
      { 'x-session-token': token },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of ways) {
      const early = await get('/sessions/whoami', headers);
      // A query string makes the request go through Fastify's route.
      const routed = await get('/sessions/whoami?langs=route', headers);
      expect(early.status).toBe(200);
      expect(early.body).toBe(routed.body);
      expect(meaningful(early.headers)).toEqual(meaningful(routed.headers));
      expect(early.headers['x-kratos-authenticated-identity-id']).toBe(JSON.parse(early.body).identity.id);
      expect(early.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('leaves every other case to the route: no session, a forged one, another method', async () => {
    const refused: Record<string, string>[] = [
      {},
      { cookie: 'ory_kratos_session=vervalst' },
      { 'x-session-token': 'x'.repeat(300) },
    ];
    for (const headers of refused) {
      const answer = await get('/sessions/whoami', headers);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 401, status: 'Unauthorized' });
    }
    const posted = await fetch(`${portaal.publicUrl}/sessions/whoami`, { method: 'POST', headers: { cookie } });
    expect(posted.status).toBe(200);
  });

  it('counts its answers in the metrics like the routed ones', async () => {
    const before = await countedWhoamis();
    for (let n = 0; n < 5; n += 1) expect((await get('/sessions/whoami', { cookie })).status).toBe(200);
    expect(await countedWhoamis()).toBe(before + 5);
  });

  it('counts a revocation at the very next request, though the answer was kept', async () => {
    const { user, browser } = await signedInPerson(portaal);
    const own = await browser.jar.getCookieString(portaal.publicUrl);
    for (let n = 0; n < 3; n += 1) expect((await get('/sessions/whoami', { cookie: own })).status).toBe(200);
    await identityApi(portaal.adminUrl).deleteIdentitySessions({ id: user.id });
    expect((await get('/sessions/whoami', { cookie: own })).status).toBe(401);
    // Someone else's kept answer is not touched by it.
    expect((await get('/sessions/whoami', { cookie })).status).toBe(200);
  });

  it('tells clients to reconnect elsewhere while the process drains', async () => {
    const stopped = portaal.terminate();
    await expect.poll(async () => (await fetch(`${portaal.adminUrl}/health/ready`)).status).toBe(503);
    const early = await get('/sessions/whoami', { cookie });
    expect([early.status, early.headers.connection]).toEqual([200, 'close']);
    expect(await stopped).toBe(0);
    await portaal.restart();
  });
});
