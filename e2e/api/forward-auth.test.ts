import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBrowser, type Browser } from '../support/ory.js';
import { uniqueEmail } from '../support/identities.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { api, createMember, portaalCli, signInAtAal1, signInAtAal2, writeTuple } from '../support/portal-users.js';

// GET /api/forward-auth, as nginx's auth_request and Traefik's ForwardAuth call it: the browser's cookies and the
// X-Forwarded-* headers of its request (docs/architecture.md#forward-authentication, docs/security.md item 51).

const PASSWORD = 'Kaart-Atlas-Wijk-Buurt-27';
const ANNA_LAST = 'Ñúñez 100%: X\u2028Y';

/** The demo catalogue with services that share a host: told apart by path, or not at all. */
function catalogueFile(dir: string): string {
  const demo = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  const service = (id: string, url: string, access: Record<string, string[]>) => ({ id, name: id, url, access });
  demo.services.push(
    service('atlas', 'https://diensten.voorbeeld.nl/atlas/', { dataRoles: ['ruimte_voorbeeldstad'] }),
    service('diensten', 'https://diensten.voorbeeld.nl/', { organisations: ['dego'] }),
    service('kopie-a', 'https://kopie.voorbeeld.nl/', { organisations: ['dego'] }),
    service('kopie-b', 'https://kopie.voorbeeld.nl', { organisations: ['dijkstad'] }),
    service('lokaal', 'http://127.0.0.1:8080/lokaal/', { organisations: ['voorbeeldstad'] }),
  );
  const file = path.join(dir, 'catalogue.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

let dir: string;
let portaal: Portaal;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'forward-auth-'));
  portaal = await startPortaal({ env: { CATALOGUE_FILE: catalogueFile(dir) } });
});
afterAll(async () => {
  await portaal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A forward-auth check as a proxy makes it for a browser: its cookies (if any) and where it was going. */
function check(who: Browser | undefined, query: string, headers: Record<string, string> = {}) {
  return (who?.fetch ?? fetch)(`${portaal.publicUrl}/api/forward-auth${query}`, {
    headers: { accept: 'application/json', ...headers },
    redirect: 'manual',
  });
}

const to = (host: string, uri = '/', proto = 'https') => ({
  'x-forwarded-host': host,
  'x-forwarded-uri': uri,
  'x-forwarded-proto': proto,
});

async function person(org: string, options: { first?: string; last?: string } = {}) {
  const email = uniqueEmail(org);
  await createMember(portaal, { email, password: PASSWORD, org, ...options });
  return email;
}

async function idOf(who: Browser): Promise<string> {
  return (await api(portaal, who, 'GET', '/users/whoami')).body.identity.id;
}

const tuple = (method: 'PUT' | 'DELETE', subjectId: string, object: string) =>
  writeTuple(portaal.adminUrl, method, {
    namespace: 'subdivisions',
    object,
    relation: 'issuer',
    subject_id: subjectId,
  });

/**
 * Stops the portal as a supervisor does (SIGTERM) and starts it again on the same database: refusals are written per
 * minute, and at the latest on shutdown (packages/users-api/src/forward-auth/refusal-counts.ts).
 */
async function restartToWriteRefusals() {
  expect(await portaal.terminate()).toBe(0);
  await portaal.restart();
}

/** The audit log's service sign-ins of one person, in a fixed order (entries of one millisecond have none). */
function serviceSignIns(identityId: string) {
  const { stdout, status, stderr } = portaalCli(portaal, ['audit', 'export'], 'portal');
  expect(status, stderr).toBe(0);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.action === 'service.sign_in' && entry.actorId === identityId)
    .map((entry) => JSON.stringify({ result: entry.result, ...entry.details }))
    .sort()
    .map((text) => JSON.parse(text));
}

describe('GET /api/forward-auth', () => {
  let anna: Browser;
  let annaId: string;
  let annaEmail: string;

  beforeAll(async () => {
    annaEmail = await person('voorbeeldstad', { first: 'Zoë', last: ANNA_LAST });
    anna = (await signInAtAal2(portaal, annaEmail, PASSWORD)).browser;
    annaId = await idOf(anna);
    await tuple('PUT', annaId, 'ruimte_voorbeeldstad');
  });

  it('answers 200 with the identity headers, for the service the host and path or ?service= name', async () => {
    const byHost = await check(anna, '', to('diensten.voorbeeld.nl', '/atlas/kaart?wijk=12'));
    expect(byHost.status).toBe(200);
    expect(await byHost.text()).toBe('');
    expect(byHost.headers.get('x-portaal-user-id')).toBe(annaId);
    expect(byHost.headers.get('x-portaal-email')).toBe(annaEmail);
    expect(decodeURIComponent(byHost.headers.get('x-portaal-name')!)).toBe(`Zoë ${ANNA_LAST}`);
    expect(byHost.headers.get('x-portaal-organisation')).toBe('voorbeeldstad');
    // Only the data roles the service's rules name: atlas is for ruimte.
    expect(byHost.headers.get('x-portaal-data-roles')).toBe('ruimte_voorbeeldstad');
    expect(byHost.headers.get('cache-control')).toBe('no-store');

    // ?service= decides alone; wijkmonitor is for organisations, so no data role is told.
    const byName = await check(anna, '?service=wijkmonitor', to('diensten.voorbeeld.nl', '/atlas/'));
    expect(byName.status).toBe(200);
    expect(byName.headers.get('x-portaal-data-roles')).toBe('');
    expect((await check(anna, '?service=woningbouwplanner')).status).toBe(200);
    expect((await check(anna, '', to('WONINGBOUW.voorbeeld.nl:443'))).status).toBe(200);
    // Another port on a plain-http host, and a path under the service's.
    expect((await check(anna, '', to('127.0.0.1:8080', '/lokaal/x', 'http'))).status).toBe(200);
  });

  it('answers 401 with the sign-in that leads back, without a session or with an unknown one', async () => {
    for (const who of [undefined, newBrowser(portaal.publicUrl)]) {
      const answer = await check(who, '', to('diensten.voorbeeld.nl', '/atlas/kaart?wijk=12&jaar=2025'));
      expect(answer.status).toBe(401);
      expect((await answer.json()).error.id).toBe('session_inactive');
      const signIn = new URL(answer.headers.get('x-portaal-sign-in')!);
      expect(`${signIn.origin}${signIn.pathname}`).toBe(`${portaal.publicUrl}/login`);
      expect(signIn.searchParams.get('return_to')).toBe('https://diensten.voorbeeld.nl/atlas/kaart?wijk=12&jaar=2025');
      expect(signIn.searchParams.has('aal')).toBe(false);
      expect(answer.headers.get('x-portaal-user-id')).toBeNull();
    }
    const forged = await check(undefined, '?service=atlas', {
      cookie: 'ory_kratos_session=ory_st_nepnepnepnepnepnepnepnepnepnepne',
    });
    expect(forged.status).toBe(401);
    // Headers that point off the service's origin lead back to the service's own url, never elsewhere.
    const elsewhere = await check(undefined, '?service=atlas', to('evil.example', '/steal'));
    expect(new URL(elsewhere.headers.get('x-portaal-sign-in')!).searchParams.get('return_to')).toBe(
      'https://diensten.voorbeeld.nl/atlas/',
    );
  });

  it('sends a page to the sign-in with a 302 when asked to (Traefik), and answers a script 401', async () => {
    const page = { ...to('diensten.voorbeeld.nl', '/atlas/'), accept: 'text/html,*/*', 'x-forwarded-method': 'GET' };
    const redirected = await check(undefined, '?redirect=true', page);
    expect(redirected.status).toBe(302);
    expect(new URL(redirected.headers.get('location')!).searchParams.get('return_to')).toBe(
      'https://diensten.voorbeeld.nl/atlas/',
    );
    expect((await check(undefined, '?redirect=true', { ...page, accept: 'application/json' })).status).toBe(401);
    expect((await check(undefined, '?redirect=true', { ...page, 'x-forwarded-method': 'POST' })).status).toBe(401);
    expect((await check(undefined, '', page)).status).toBe(401);
    // Signed in, the same request passes.
    expect((await check(anna, '?redirect=true', page)).status).toBe(200);
  });

  it('answers 401 for an aal1 session where the organisation requires the second factor, 200 where not', async () => {
    const halfway = (await signInAtAal1(portaal, annaEmail, PASSWORD)).browser;
    const answer = await check(halfway, '?service=atlas');
    expect(answer.status).toBe(401);
    expect((await answer.json()).error.id).toBe('session_aal2_required');
    expect(new URL(answer.headers.get('x-portaal-sign-in')!).searchParams.get('aal')).toBe('aal2');

    // Without an authenticator app yet: the plain sign-in, whose screens lead to linking one.
    const newcomer = (await signInAtAal1(portaal, await person('voorbeeldstad'), PASSWORD)).browser;
    const withoutApp = await check(newcomer, '?service=wijkmonitor');
    expect(withoutApp.status).toBe(401);
    expect((await withoutApp.json()).error.id).toBe('session_aal2_required');
    expect(new URL(withoutApp.headers.get('x-portaal-sign-in')!).searchParams.has('aal')).toBe(false);

    const dego = (await signInAtAal1(portaal, await person('dego'), PASSWORD)).browser;
    const allowed = await check(dego, '?service=wijkmonitor');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-portaal-organisation')).toBe('dego');
  });

  it('answers 403 without access, and a clear 4xx for a service it cannot name, signed in or not', async () => {
    const dego = (await signInAtAal1(portaal, await person('dego'), PASSWORD)).browser;
    const refused = await check(dego, '?service=woningbouwplanner');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.id).toBe('forbidden_service');
    expect(refused.headers.get('x-portaal-user-id')).toBeNull();
    // For a proxy that shows the answer to the browser (Traefik), a page in Dutch.
    const page = await check(dego, '?service=woningbouwplanner&redirect=true', { accept: 'text/html' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; frame-ancestors 'none'$/,
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('Je hebt geen toegang tot deze datavoorziening.');
    expect(html).toContain(`<a href="${portaal.publicUrl}/permissies">`);
    // diensten.voorbeeld.nl/ is dego's; its /atlas/ is a service of its own, for ruimte only.
    expect((await check(dego, '', to('diensten.voorbeeld.nl', '/kaart'))).status).toBe(200);
    expect((await check(dego, '', to('diensten.voorbeeld.nl', '/atlas/kaart'))).status).toBe(403);

    const cases: [string, Record<string, string>, number, string][] = [
      ['?service=bestaat-niet', {}, 404, 'service_not_found'],
      ['', to('onbekend.voorbeeld.nl'), 404, 'service_not_found'],
      ['', to('diensten.voorbeeld.nl.evil.example'), 404, 'service_not_found'],
      ['', to('127.0.0.1:8080', '/ander', 'http'), 404, 'service_not_found'],
      ['', to('iemand@diensten.voorbeeld.nl'), 404, 'service_not_found'],
      ['', {}, 400, 'service_not_named'],
      ['', to('kopie.voorbeeld.nl'), 400, 'service_ambiguous'],
      ['?service=Met_Hoofdletter', {}, 400, 'invalid_request'],
      ['?service=atlas&service=diensten', {}, 400, 'invalid_request'],
      ['?redirect=ja', {}, 400, 'invalid_request'],
    ];
    for (const who of [dego, undefined]) {
      for (const [query, headers, status, id] of cases) {
        const answer = await check(who, query, headers);
        expect(answer.status, `${query} ${JSON.stringify(headers)}`).toBe(status);
        const body = await answer.json();
        expect(body.error.id).toBe(id);
        expect(typeof body.error.message).toBe('string');
      }
    }
    // ?service= picks one of the services that share a host.
    expect((await check(dego, '?service=kopie-a', to('kopie.voorbeeld.nl'))).status).toBe(200);
    expect((await check(dego, '?service=kopie-b', to('kopie.voorbeeld.nl'))).status).toBe(403);
  });

  it('refuses at once a revoked session, a blocked person and a withdrawn data role, passes kept or not', async () => {
    // Each pass is asked for twice: the second is answered from what was kept (forward-auth/kept-checks.ts).
    const passes = async (who: Browser, query: string) => {
      for (let n = 0; n < 2; n += 1) expect((await check(who, query)).status).toBe(200);
    };
    const email = await person('dego');
    let who = (await signInAtAal1(portaal, email, PASSWORD)).browser;
    const id = await idOf(who);
    await passes(who, '?service=wijkmonitor');
    expect((await fetch(`${portaal.adminUrl}/admin/identities/${id}/sessions`, { method: 'DELETE' })).status).toBe(204);
    expect((await check(who, '?service=wijkmonitor')).status).toBe(401);

    who = (await signInAtAal1(portaal, email, PASSWORD)).browser;
    await passes(who, '?service=wijkmonitor');
    const blocked = await fetch(`${portaal.adminUrl}/admin/identities/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ op: 'replace', path: '/state', value: 'inactive' }]),
    });
    expect(blocked.status).toBe(200);
    expect((await check(who, '?service=wijkmonitor')).status).toBe(401);

    await passes(anna, '?service=atlas');
    await tuple('DELETE', annaId, 'ruimte_voorbeeldstad');
    expect((await check(anna, '?service=atlas')).status).toBe(403);
    await tuple('PUT', annaId, 'ruimte_voorbeeldstad');
    expect((await check(anna, '?service=atlas')).status).toBe(200);
  });

  it('answers a kept pass with the headers the first check answered', async () => {
    const meaningful = (response: Response) => {
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (!['date', 'connection', 'keep-alive'].includes(name)) headers.push([name, value]);
      });
      return headers;
    };
    const first = await check(anna, '', to('diensten.voorbeeld.nl', '/atlas/kaart?wijk=12'));
    const again = await check(anna, '', to('diensten.voorbeeld.nl', '/atlas/legenda'));
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(meaningful(again)).toEqual(meaningful(first));
    expect(await again.text()).toBe('');
    // What the route refuses stays refused though a pass is kept: a parameter value it does not accept.
    expect((await check(anna, '?redirect=misschien', to('diensten.voorbeeld.nl', '/atlas/legenda'))).status).toBe(400);
    // A kept pass is for its own service only: the same person on a service she may not use is refused.
    expect((await check(anna, '?service=veiligheidsbeeld')).status).toBe(403);
  });

  it('keeps header values printable ASCII: a name with CR or LF never gets in, anything else is encoded', async () => {
    for (const last of ['Wit\r\nX-Portaal-User-Id: iemand-anders', 'Wit\nX', 'Wit\u0085X']) {
      const created = await fetch(`${portaal.adminUrl}/admin/identities`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schema_id: 'default',
          traits: { email: uniqueEmail('injectie'), name: { first: 'Anna', last } },
        }),
      });
      expect(created.status, JSON.stringify(last)).toBe(400);
    }
    const answer = await check(anna, '?service=atlas');
    const name = answer.headers.get('x-portaal-name')!;
    // The line separator, the accents and % are encoded; the colon and the rest are as typed.
    expect(name).toBe('Zo%C3%AB %C3%91%C3%BA%C3%B1ez 100%25: X%E2%80%A8Y');
    expect(decodeURIComponent(name)).toBe(`Zoë ${ANNA_LAST}`);
    expect(answer.headers.get('x-portaal-user-id')).toBe(annaId);
    answer.headers.forEach((value, header) => {
      if (header.startsWith('x-portaal-')) expect(value, header).toMatch(/^[\x20-\x7e]*$/);
    });
  });

  it('audits the first allowed check of a session at a service and counts refusals, not every request', async () => {
    const email = await person('dego');
    const first = (await signInAtAal1(portaal, email, PASSWORD)).browser;
    const id = await idOf(first);
    for (let i = 0; i < 3; i += 1) expect((await check(first, '?service=wijkmonitor')).status).toBe(200);
    expect((await check(first, '?service=begrotingsvergelijker')).status).toBe(403);
    await restartToWriteRefusals();
    const refusal = {
      result: 'denied',
      service: 'begrotingsvergelijker',
      reason: 'no access to the service',
      count: 1,
      minute: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/),
    };
    expect(serviceSignIns(id)).toEqual([refusal, { result: 'success', service: 'wijkmonitor' }]);

    // A data role given afterwards: the first allowed check after the refusal is a sign-in again.
    await tuple('PUT', id, 'analyse_dego');
    expect((await check(first, '?service=begrotingsvergelijker')).status).toBe(200);
    expect((await check(first, '?service=begrotingsvergelijker')).status).toBe(200);
    // Another session of the same person is another sign-in.
    const second = (await signInAtAal1(portaal, email, PASSWORD)).browser;
    expect((await check(second, '?service=wijkmonitor')).status).toBe(200);
    expect(serviceSignIns(id)).toEqual([
      refusal,
      { result: 'success', service: 'begrotingsvergelijker' },
      { result: 'success', service: 'wijkmonitor' },
      { result: 'success', service: 'wijkmonitor' },
    ]);

    const entry = JSON.parse(
      portaalCli(portaal, ['audit', 'export'], 'portal')
        .stdout.split('\n')
        .filter(Boolean)
        .findLast((line) => line.includes('"service.sign_in"'))!,
    );
    expect(entry).toMatchObject({ organisationId: 'dego', actorId: id, actorEmail: email, result: 'success' });
    expect(entry.clientAddress).toBeTruthy();
  });

  it('writes one audit entry with the count for many refused checks of a session at a service a minute', async () => {
    const email = await person('dego');
    const who = (await signInAtAal1(portaal, email, PASSWORD)).browser;
    const id = await idOf(who);
    // All in one minute: not in the last 15 seconds of one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const refusedAt = async (service: string, times: number) => {
      for (let batch = 0; batch < times; batch += 20) {
        const answers = await Promise.all(
          Array.from({ length: Math.min(20, times - batch) }, () => check(who, `?service=${service}`)),
        );
        for (const answer of answers) expect(answer.status).toBe(403);
      }
    };
    await refusedAt('begrotingsvergelijker', 200);
    await refusedAt('woningbouwplanner', 3);
    // Nothing yet: the minute is not over.
    expect(serviceSignIns(id)).toEqual([]);
    await restartToWriteRefusals();
    const entries = portaalCli(portaal, ['audit', 'export'], 'portal')
      .stdout.split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.action === 'service.sign_in' && entry.actorId === id);
    expect(entries.map((entry) => entry.details).sort((a, b) => a.service.localeCompare(b.service))).toEqual([
      { service: 'begrotingsvergelijker', reason: 'no access to the service', count: 200, minute: expect.any(String) },
      { service: 'woningbouwplanner', reason: 'no access to the service', count: 3, minute: expect.any(String) },
    ]);
    expect(entries[0]).toMatchObject({ organisationId: 'dego', actorEmail: email, result: 'denied' });
    expect(entries[0].clientAddress).toBeTruthy();
    // After the restart the count starts again.
    expect((await check(who, '?service=begrotingsvergelijker')).status).toBe(403);
  });
});

describe('GET /api/forward-auth with an expired session', () => {
  let short: Portaal;
  beforeAll(async () => {
    short = await startPortaal({ env: { CATALOGUE_FILE: catalogueFile(dir), SESSION_LIFESPAN: '2s' } });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it('answers 401 once the session has lived its lifespan', async () => {
    const email = uniqueEmail('dego');
    await createMember(short, { email, password: PASSWORD, org: 'dego' });
    const who = (await signInAtAal1(short, email, PASSWORD)).browser;
    // Sent by hand: the browser's jar would drop the expired cookie itself, and the server is what is tested.
    const cookie = await who.jar.getCookieString(short.publicUrl);
    expect(cookie).toContain('ory_kratos_session=');
    const ask = () =>
      fetch(`${short.publicUrl}/api/forward-auth?service=wijkmonitor`, { headers: { cookie }, redirect: 'manual' });
    // Asked twice, so that the pass is kept: the session's end is a time of its own, not a change in the database.
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const expired = await ask();
    expect(expired.status).toBe(401);
    expect(expired.headers.get('x-portaal-sign-in')).toContain('/login?return_to=');
  });
});
