import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../support/free-port.js';
import { uniqueEmail } from '../support/identities.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { createMember, signInAtAal1, signInAtAal2 } from '../support/portal-users.js';

// The attack: two services on one host, told apart by path. nginx routes on its normalised `$uri` (percent-decoded,
// dot segments resolved, slashes merged); the portal is asked with the raw `X-Forwarded-Uri` ($request_uri). Where
// the two read a path differently, `/%67eheim/…` is judged as the root service and delivered to `location /geheim/`:
// a member of one organisation reads another organisation's service (docs/security.md item 51). Each path below goes
// through Debian's nginx with deploy/nginx/forward-auth.conf (a second location added as an operator adds one), for a
// member of each organisation; the echo servers say which service they are. A request may reach a service only when
// the portal, asked directly about the same raw path, chose that very service and allowed that person there.

const [nginxPort] = (await freePorts(1)) as [number];
// The portal and the upstreams listen first, on ports chosen as they start (a port chosen ahead could be taken
// meanwhile by another test file running beside this one); nginx's configuration is written after.
let portalPort: number;
let openbaarPort: number;
let geheimPort: number;
const HOST = `127.0.0.1:${nginxPort}`;
const PASSWORD = 'Pad-Punt-Schuine-Streep-47';

type Service = 'openbaar' | 'geheim';
/** What the portal decides for a path: the service it judges the request to be for, or a refusal (400). */
type Decision = Service | 'refused';

/**
 * Paths as the browser (or an attacker) puts them in the request line, with the service the portal must choose.
 * The comment says what nginx 1.22 makes of it (`$uri` and the location), checked with Debian's nginx.
 */
const PATHS: [string, Decision][] = [
  ['/geheim/a', 'geheim'],
  ['/', 'openbaar'],
  ['/kaart/3', 'openbaar'],
  ['/%67eheim/a', 'geheim'], // nginx: /geheim/a
  ['/x/../geheim/a', 'geheim'], // nginx: /geheim/a
  ['/x/%2e%2e/geheim/a', 'geheim'], // nginx: /geheim/a
  ['/x/%2E%2E/geheim/a', 'geheim'], // nginx: /geheim/a
  ['/x/%2E%2e/geheim/', 'geheim'], // nginx: /geheim/
  ['/x/.%2e/geheim/', 'geheim'], // nginx: /geheim/
  ['/x/%2e./geheim/', 'geheim'], // nginx: /geheim/
  ['//geheim/a', 'geheim'], // nginx merges slashes: /geheim/a
  ['///geheim//a', 'geheim'], // nginx: /geheim/a
  ['/x/..//geheim/a', 'geheim'], // nginx: /geheim/a
  ['/a//../geheim/', 'geheim'], // nginx merges before it resolves: /geheim/
  ['/geheim//..//x', 'openbaar'], // nginx: /x
  ['/./geheim/a', 'geheim'], // nginx: /geheim/a
  ['/%2e/geheim/a', 'geheim'], // nginx: /geheim/a
  ['/x/./../geheim/', 'geheim'], // nginx: /geheim/
  ['/geheim/x/../../geheim/a', 'geheim'], // nginx: /geheim/a
  ['/geheim/;/../../geheim/a', 'geheim'], // nginx: /geheim/a
  ['/%c3%a9/../geheim/', 'geheim'], // nginx: /geheim/
  ['/%e2%80%a8/../geheim/', 'geheim'], // nginx: /geheim/
  ['/geheim/a?x=/../../', 'geheim'], // the query is no part of the path
  ['/geheim/%2e', 'geheim'], // nginx: /geheim/
  ['/geheim', 'openbaar'], // nginx: 301 to /geheim/, before any check; Traefik's PathPrefix(`/geheim/`): the root
  ['/geheim/../', 'openbaar'], // nginx: /
  ['/geheim/..', 'openbaar'], // nginx: /
  ['/geheim/%2e%2e/', 'openbaar'], // nginx: /
  ['/geheim;p=1/a', 'openbaar'], // nginx: /geheim;p=1/a, location /
  ['/geheim./a', 'openbaar'], // trailing dot: a segment of its own, location /
  ['/geheim%2e/a', 'openbaar'], // nginx: /geheim./a
  ['/GEHEIM/a', 'openbaar'], // nginx compares case-sensitively
  ['/%47eheim/a', 'openbaar'], // nginx: /Geheim/a
  ['/%7egeheim/', 'openbaar'], // nginx: /~geheim/
  ['/%20geheim/', 'openbaar'], // nginx: "/ geheim/"
  ['/x/%252e%252e/geheim/', 'openbaar'], // double encoding is decoded once: /x/%2e%2e/geheim/
  ['/x/.../geheim/', 'openbaar'], // three dots are no dot segment
  ['/x/%2e%2e%3fgeheim', 'openbaar'], // nginx: /x/..?geheim (one segment)
  ['/x/..?/geheim/', 'openbaar'], // the query starts at ?: nginx /
  ['/x/..#/geheim/', 'openbaar'], // nginx ends the path at #: /
  ['/geheim%2fa', 'refused'], // nginx decodes %2f and routes /geheim/a
  ['/%2fgeheim/a', 'refused'], // nginx: /geheim/a
  ['/x/..%2fgeheim/a', 'refused'], // nginx: /geheim/a
  ['/x%5c..%5cgeheim/a', 'refused'], // nginx: /x\..\geheim/a, location / (a Windows back end reads it otherwise)
  ['/x\\..\\geheim\\a', 'refused'], // a raw backslash, likewise
  ['/geheim%00/a', 'refused'], // nginx: 400
  ['/geheim/a%0d%0ab', 'refused'], // nginx: /geheim/a\r\nb
  ['/geheim%09/a', 'refused'], // nginx: a tab in the path, location /
  ['/x/%c0%ae%c0%ae/geheim/', 'refused'], // overlong UTF-8 for ..: nginx location /, other servers read ../
  ['/x/%ff/../geheim/', 'refused'], // not UTF-8: nginx /x/geheim/
  ['/géheim/', 'refused'], // raw UTF-8 bytes in the request line: nginx /géheim/, location /
  ['/%zz/geheim/', 'refused'], // invalid percent-encoding: nginx 400
  ['/geheim%/', 'refused'], // nginx: 400
  ['/../geheim/', 'refused'], // above the root: nginx 400
  ['/a/b/../../../geheim/', 'refused'], // nginx: 400
  ['/geheim/..;/x', 'refused'], // nginx: /geheim/..;/x (Tomcat reads ..;/ as ../)
  ['/x/.%2e;/geheim/', 'refused'], // nginx: /x/..;/geheim/, location /
];

/** The demo catalogue with two services on nginx's one host: the root for dego, /geheim/ for dijkstad. */
function catalogueFile(dir: string): string {
  const demo = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  demo.services.push(
    { id: 'openbaar', name: 'Openbaar', url: `http://${HOST}/`, access: { organisations: ['dego'] } },
    { id: 'geheim', name: 'Geheim', url: `http://${HOST}/geheim/`, access: { organisations: ['dijkstad'] } },
  );
  const file = path.join(dir, 'catalogue.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

/**
 * deploy/nginx/forward-auth.conf pointed at this test's ports, with a second service on the same host as an operator
 * adds one: a copy of its `location /` for `location /geheim/`, passing to an upstream of its own.
 */
function exampleConfig(): string {
  let config = readFileSync(new URL('../../deploy/nginx/forward-auth.conf', import.meta.url), 'utf8');
  const replace = (from: string, to: string) => {
    expect(config, `the example has '${from}'`).toContain(from);
    config = config.replace(from, to);
  };
  replace('server 127.0.0.1:4455;', `server 127.0.0.1:${portalPort};`);
  replace('server 127.0.0.1:8080;', `server 127.0.0.1:${openbaarPort};`);
  replace('listen 8443;', `listen 127.0.0.1:${nginxPort};`);
  replace('server_name portaal.example.nl;', 'server_name 127.0.0.1;');
  const root = /\n {2}location \/ \{\n[\s\S]*?\n {2}\}\n/.exec(config)?.[0];
  expect(root, 'the example has a location / block').toBeTruthy();
  const geheim = root!.replace('location / {', 'location /geheim/ {').replace('http://wijkmonitor;', 'http://geheim;');
  expect(geheim).toContain('proxy_pass http://geheim;');
  replace(root!, `${root}${geheim}`);
  return `upstream geheim {\n  server 127.0.0.1:${geheimPort};\n}\n${config}`;
}

/** An upstream that answers which service it is and whose identity headers reached it. */
function startEcho(service: Service): Promise<Server> {
  const server = createServer((request, response) => {
    const body = JSON.stringify({
      service,
      path: request.url,
      organisation: request.headers['x-portaal-organisation'] ?? null,
    });
    // With a length, so that nginx passes the body on in one piece (the test reads it off the socket).
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A request line exactly as given (fetch would normalise the path), through nginx, with the person's cookies. */
function throughNginx(target: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(nginxPort, '127.0.0.1', () => {
      socket.write(
        Buffer.concat([
          Buffer.from(`GET ${target} HTTP/1.1\r\n`, 'utf8'),
          Buffer.from(`Host: ${HOST}\r\nCookie: ${cookie}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`),
        ]),
      );
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** The portal asked directly, as nginx's sub-request asks it: `X-Forwarded-Uri` is the raw `$request_uri`. */
async function portalAnswer(target: string, cookie: string): Promise<{ status: number; id?: string }> {
  const answer = await fetch(`${portaal.publicUrl}/api/forward-auth`, {
    headers: {
      accept: 'application/json',
      cookie,
      'x-forwarded-host': HOST,
      'x-forwarded-proto': 'http',
      // nginx sends the request line's bytes as they came: UTF-8 read as Latin-1 by the header.
      'x-forwarded-uri': Buffer.from(target, 'utf8').toString('latin1'),
      'x-forwarded-method': 'GET',
    },
    redirect: 'manual',
  });
  const body = answer.status === 200 ? undefined : await answer.json();
  return { status: answer.status, id: body?.error?.id };
}

let dir: string;
let portaal: Portaal;
let nginx: Nginx;
let echoes: Server[];
const cookies = {} as Record<'dego' | 'dijkstad', string>;
/** Whom each service lets in: one organisation each. */
const ALLOWED: Record<Service, keyof typeof cookies> = { openbaar: 'dego', geheim: 'dijkstad' };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'forward-auth-paths-'));
  portaal = await startPortaal({ env: { CATALOGUE_FILE: catalogueFile(dir), TRUSTED_PROXIES: 'loopback' } });
  portalPort = Number(new URL(portaal.publicUrl).port);
  echoes = [await startEcho('openbaar'), await startEcho('geheim')];
  [openbaarPort, geheimPort] = echoes.map((server) => (server.address() as AddressInfo).port) as [number, number];
  nginx = await startNginx(exampleConfig(), nginxPort);
  const dego = uniqueEmail('dego');
  await createMember(portaal, { email: dego, password: PASSWORD, org: 'dego' });
  cookies.dego = await (await signInAtAal1(portaal, dego, PASSWORD)).browser.jar.getCookieString(portaal.publicUrl);
  // dijkstad asks for the second factor: an aal1 session would be sent to sign in everywhere.
  const dijkstad = uniqueEmail('dijkstad');
  await createMember(portaal, { email: dijkstad, password: PASSWORD, org: 'dijkstad' });
  const person = await signInAtAal2(portaal, dijkstad, PASSWORD);
  cookies.dijkstad = await person.browser.jar.getCookieString(portaal.publicUrl);
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all((echoes ?? []).map((server) => new Promise((resolve) => server.close(resolve))));
  await portaal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('forward authentication decides on the path nginx routes on', () => {
  it(`lets each of ${PATHS.length} path encodings reach only a service the portal allowed for it`, async () => {
    expect(PATHS.length).toBeGreaterThanOrEqual(30);
    const leaks: string[] = [];
    const decisions: string[] = [];
    for (const [target, expected] of PATHS) {
      // The portal's decision, from the two people: each may use one service only.
      const asked = {
        dego: await portalAnswer(target, cookies.dego),
        dijkstad: await portalAnswer(target, cookies.dijkstad),
      };
      const decided: Decision | 'unclear' =
        asked.dego.status === 200 && asked.dijkstad.status === 403
          ? 'openbaar'
          : asked.dijkstad.status === 200 && asked.dego.status === 403
            ? 'geheim'
            : asked.dego.status === 400 && asked.dijkstad.status === 400
              ? 'refused'
              : 'unclear';
      if (decided !== expected) decisions.push(`${target}: the portal decided ${decided}, expected ${expected}`);
      if (decided === 'refused') {
        expect(asked.dego.id, target).toBe('service_path_refused');
        expect(asked.dijkstad.id, target).toBe('service_path_refused');
      }

      for (const who of ['dego', 'dijkstad'] as const) {
        const answer = await throughNginx(target, cookies[who]);
        if (answer.status !== 200) continue;
        const reached = JSON.parse(answer.body) as { service: Service; path: string; organisation: string };
        // Reached a service: the portal must have chosen that very service, and allowed this person there.
        if (reached.service !== decided || ALLOWED[reached.service] !== who || asked[who].status !== 200) {
          leaks.push(
            `${target}: ${who} reached ${reached.service} (as ${reached.path}); the portal decided ${decided}`,
          );
        }
        expect(reached.organisation, target).toBe(who);
      }
    }
    expect(leaks, 'a member of one organisation read the service of another').toEqual([]);
    expect(decisions).toEqual([]);
    // nginx sent every refusal as its own 500, never on to a service.
    expect(nginx.errorLog()).toMatch(/auth request unexpected status: 400/);
  });

  it('still lets each person into their own service, so the check above is not vacuous', async () => {
    for (const [target, service] of [
      ['/geheim/kaart', 'geheim'],
      ['/%67eheim/kaart', 'geheim'],
      ['/kaart', 'openbaar'],
      ['/geheim/../kaart', 'openbaar'],
    ] as const) {
      const answer = await throughNginx(target, cookies[ALLOWED[service]]);
      expect(answer.status, target).toBe(200);
      expect(JSON.parse(answer.body).service, target).toBe(service);
    }
  });
});
