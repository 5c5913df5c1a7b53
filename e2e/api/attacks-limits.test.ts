import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWASP_HASHING, startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, identityApi, messageIds, newBrowser } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { enrolLookupSecrets, enrolTotp, loginWithPassword } from '../support/flows.js';
import { createMember, signInAtAal1 } from '../support/portal-users.js';

// Attacks on the limits (docs/security.md items 12, 45 to 49): every limiter reached through path variants
// (docs/security.md#47-path-variants-reach-the-same-route), client addresses as the server sees them
// (docs/security.md#46-which-client-address-counts), and the hash queue under a flood of sign-ins.
//
// The public listener of `limits` listens on the IPv4-mapped loopback address, so it sees its clients as
// `::ffff:127.0.0.x`; every test sends from its own 127.0.0.x (all of 127/8 is loopback on Linux), so the
// per-address counters of one test never touch another's.

const LOGIN_MAX_FAILURES = 3;
const LOGIN_MAX_FAILURES_PER_ADDRESS = 8;

let limits: Portaal;
let flood: Portaal;
beforeAll(async () => {
  [limits, flood] = await Promise.all([
    startPortaal({
      args: ['--demo'],
      env: {
        HOST: '::ffff:127.0.0.1',
        LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
        LOGIN_MAX_FAILURES_PER_ADDRESS: String(LOGIN_MAX_FAILURES_PER_ADDRESS),
      },
    }),
    startPortaal({ env: { ...OWASP_HASHING, HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '2' } }),
  ]);
});
afterAll(async () => {
  try {
    await limits?.stop();
  } finally {
    await flood?.stop();
  }
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

/** One HTTP request from a chosen local address, the path sent exactly as written (no URL normalisation). */
function call(
  base: string,
  path: string,
  options: { method?: string; from?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const url = new URL(base);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        localAddress: options.from,
        agent: false,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The same route written differently: a doubled leading slash, a trailing slash, a doubled inner slash and a
 * percent-encoded letter. Each must reach the same handler, and so the same limits.
 */
function variantsOf(path: string): string[] {
  const last = path.lastIndexOf('/');
  const encoded = `${path.slice(0, last + 1)}%${path.charCodeAt(last + 1).toString(16)}${path.slice(last + 2)}`;
  return [path, `/${path}`, `${path}/`, `${path.slice(0, last)}/${path.slice(last)}`, encoded];
}
const variant = (path: string, index: number) => variantsOf(path)[index % variantsOf(path).length]!;
/** Upper case is another route: never served, so never a way around a limit. */
const upperCase = (path: string) => path.toUpperCase();

async function apiFlow(portaal: Portaal, kind: string, from: string, index = 0): Promise<string> {
  const answer = await call(portaal.publicUrl, variant(`/self-service/${kind}/api`, index), { from });
  expect(answer.status, answer.text).toBe(200);
  return answer.json().id;
}

async function passwordAttempt(portaal: Portaal, from: string, identifier: string, password: string, index = 0) {
  const flow = await apiFlow(portaal, 'login', from, index);
  return call(portaal.publicUrl, `${variant('/self-service/login', index)}?flow=${flow}`, {
    from,
    body: { method: 'password', identifier, password },
  });
}

/** Waits until the courier has sent every mail queued so far (the Users API queues its mail after answering). */
async function mailsSettled(portaal: Portaal) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const metrics = await (await fetch(`${portaal.adminUrl}/metrics`)).text();
    const count = (status: string) =>
      Number(new RegExp(`^portaal_mails\\{status="${status}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    if (count('queued') + count('failed') === 0) return;
    if (Date.now() > deadline) throw new Error(`mails still queued:\n${metrics}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const signInCount = async (portaal: Portaal, outcome: string) =>
  Number(
    new RegExp(`^portaal_sign_ins_total\\{method="password",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
      await (await fetch(`${portaal.adminUrl}/metrics`)).text(),
    )?.[1] ?? 0,
  );

describe('the path variants', () => {
  it('reach the same route, and upper case reaches none', async () => {
    const from = '127.0.0.2';
    const flow = await apiFlow(limits, 'login', from);
    for (const path of variantsOf('/self-service/login')) {
      const answer = await call(limits.publicUrl, `${path}?flow=${flow}`, {
        from,
        body: { method: 'password', identifier: 'niemand@voorbeeldstad.nl', password: 'Fout-wachtwoord-1' },
      });
      expect(answer.status, path).toBe(400);
      expect(answer.json().id, path).toBe(flow);
    }
    for (const path of ['/SELF-SERVICE/LOGIN', '/Self-Service/Login']) {
      const answer = await call(limits.publicUrl, `${path}?flow=${flow}`, { from, body: { method: 'password' } });
      expect(answer.status, path).toBe(404);
    }
  });
});

describe('the sign-in limits, through every path variant', () => {
  it(`lock an account after ${LOGIN_MAX_FAILURES} failures, whichever variant each came through`, async () => {
    const user = await createPasswordIdentity(identityApi(limits.adminUrl));
    const from = '127.0.0.11';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const failed = await passwordAttempt(limits, from, user.email, `Fout-wachtwoord-${i}`, i + 1);
      expect(messageIds(failed.json())).toEqual([4000006]);
    }
    // Through yet another variant, with the address written in capitals: still the same, locked account.
    const locked = await passwordAttempt(limits, from, user.email.toUpperCase(), user.password, 4);
    expect(locked.status).toBe(400);
    expect(messageIds(locked.json())).toEqual([4000006]);
    // The account is locked, not this client: from another address the right password is refused as well.
    const elsewhere = await passwordAttempt(limits, '127.0.0.12', user.email, user.password);
    expect(messageIds(elsewhere.json())).toEqual([4000006]);
    const flow = await apiFlow(limits, 'login', from);
    const upper = await call(limits.publicUrl, `${upperCase('/self-service/login')}?flow=${flow}`, {
      from,
      body: { method: 'password', identifier: user.email, password: user.password },
    });
    expect(upper.status).toBe(404);
    expect(upper.text).not.toContain('session_token');
  });

  it(
    `lock a client address after ${LOGIN_MAX_FAILURES_PER_ADDRESS} failures on any accounts, ` +
      'and count IPv4 clients of a dual-stack listener apart',
    async () => {
      const user = await createPasswordIdentity(identityApi(limits.adminUrl));
      const attacker = '127.0.0.21';
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i += 1) {
        const failed = await passwordAttempt(limits, attacker, uniqueEmail('geraden'), 'Fout-wachtwoord-1', i);
        expect(messageIds(failed.json())).toEqual([4000006]);
      }
      const fromAttacker = await passwordAttempt(limits, attacker, user.email, user.password, 2);
      expect(fromAttacker.status).toBe(400);
      expect(messageIds(fromAttacker.json())).toEqual([4000006]);
      // `::ffff:127.0.0.22` is another client than `::ffff:127.0.0.21`: were mapped addresses bucketed as IPv6 (by
      // /64), every IPv4 client of a dual-stack listener would share one counter and be locked together.
      const neighbour = await passwordAttempt(limits, '127.0.0.22', user.email, user.password);
      expect(neighbour.status, neighbour.text).toBe(200);
      expect(neighbour.json().session.identity.id).toBe(user.id);
    },
  );

  it(`lock the second factor after ${LOGIN_MAX_FAILURES} wrong codes, whatever variant each came by`, async () => {
    const user = await createPasswordIdentity(identityApi(limits.adminUrl));
    const enrolling = newBrowser(limits.publicUrl);
    await loginWithPassword(enrolling, user.email, user.password);
    await enrolTotp(enrolling);
    const [unused] = await enrolLookupSecrets(enrolling);

    const browser = newBrowser(limits.publicUrl);
    expect((await loginWithPassword(browser, user.email, user.password)).redirectBrowserTo).toContain('aal=aal2');
    const submit = async (code: string, index: number) => {
      const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
      const path = index < 0 ? upperCase('/self-service/login') : variant('/self-service/login', index);
      return browser.fetch(`${limits.publicUrl}${path}?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(flow) }),
      });
    };
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const wrong = await submit(`fout${i}abc`, i + 1);
      expect(wrong.status).toBe(400);
      expect(messageIds(await wrong.json())).toEqual([4000016]);
    }
    expect((await submit(unused!, -1)).status).toBe(404);
    // A valid, unused backup code: refused only because the second factor is locked.
    const locked = await submit(unused!, 4);
    expect(locked.status).toBe(400);
    expect((await browser.frontend.toSession().catch((error) => error.response)).status).toBe(403);
  });
});

describe('the code and mail limits, through every path variant', () => {
  it('kill a recovery code after 5 wrong tries, whichever variant each came through', async () => {
    const user = await createPasswordIdentity(identityApi(limits.adminUrl));
    const from = '127.0.0.31';
    const flow = await apiFlow(limits, 'recovery', from);
    const since = new Date();
    const sent = await call(limits.publicUrl, `/self-service/recovery?flow=${flow}`, {
      from,
      body: { method: 'code', email: user.email },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = /^(\d{6})$/m.exec((await limits.mail.waitFor(user.email, { since })).text)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const answer = await call(limits.publicUrl, `${variant('/self-service/recovery', i + 1)}?flow=${flow}`, {
        from,
        body: { method: 'code', code: wrong },
      });
      expect(messageIds(answer.json())).toEqual([4060006]);
    }
    const sixth = await call(limits.publicUrl, `${variant('/self-service/recovery', 3)}?flow=${flow}`, {
      from,
      body: { method: 'code', code },
    });
    expect(sixth.text).not.toContain('ory_st_');
    expect(messageIds(sixth.json())).toEqual([4000001]);
  });

  describe.each([
    ['recovery', '/self-service/recovery'],
    ['verification', '/self-service/verification'],
  ])('%s mails', (kind, submitPath) => {
    const ask = async (from: string, email: string, index: number) => {
      const flow = await apiFlow(limits, kind, from, index);
      const answer = await call(limits.publicUrl, `${variant(submitPath, index)}?flow=${flow}`, {
        from,
        body: { method: 'code', email },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json().state).toBe('sent_email');
    };

    it('go out at most 5 times per address, whichever variant and spelling of the address', async () => {
      const user = await createPasswordIdentity(identityApi(limits.adminUrl));
      const spellings = [user.email, user.email.toUpperCase(), ` ${user.email} `];
      for (let i = 0; i < 7; i += 1) await ask(kind === 'recovery' ? '127.0.0.41' : '127.0.0.51', spellings[i % 3]!, i);
      await mailsSettled(limits);
      // docs/security.md#49-no-mail-bombing: 5 mails, not one more (and not one fewer).
      expect(limits.mail.to(user.email)).toHaveLength(5);
    });

    it('go out at most 30 times per client address, which leaves other clients alone', async () => {
      const user = await createPasswordIdentity(identityApi(limits.adminUrl));
      const attacker = kind === 'recovery' ? '127.0.0.42' : '127.0.0.52';
      for (let i = 0; i < 30; i += 1) await ask(attacker, uniqueEmail('onbekend'), i);
      await ask(attacker, user.email, 0);
      await mailsSettled(limits);
      expect(limits.mail.to(user.email)).toHaveLength(0);
      await ask(kind === 'recovery' ? '127.0.0.43' : '127.0.0.53', user.email, 1);
      await limits.mail.waitFor(user.email);
    });
  });

  describe("the Users API's password recovery", () => {
    const ask = async (from: string, email: string, index: number) => {
      const answer = await call(
        limits.publicUrl,
        `${variant('/api/users/password-recovery', index)}?email=${encodeURIComponent(email)}`,
        { from },
      );
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json()).toEqual({ sent: true });
    };

    it('mails at most 5 times per address, whichever variant and spelling; upper case is no route', async () => {
      const user = await createPasswordIdentity(identityApi(limits.adminUrl));
      const from = '127.0.0.61';
      const spellings = [user.email, user.email.toUpperCase(), ` ${user.email}`];
      for (let i = 0; i < 7; i += 1) await ask(from, spellings[i % 3]!, i);
      const upper = await call(
        limits.publicUrl,
        `${upperCase('/api/users/password-recovery')}?email=${encodeURIComponent(user.email)}`,
        { from },
      );
      expect(upper.status).toBe(404);
      await mailsSettled(limits);
      expect(limits.mail.to(user.email)).toHaveLength(5);
    });

    it('mails at most 30 times per client address, which leaves other clients alone', async () => {
      const user = await createPasswordIdentity(identityApi(limits.adminUrl));
      for (let i = 0; i < 30; i += 1) await ask('127.0.0.62', uniqueEmail('onbekend'), i);
      await ask('127.0.0.62', user.email, 0);
      await mailsSettled(limits);
      expect(limits.mail.to(user.email)).toHaveLength(0);
      await ask('127.0.0.63', user.email, 1);
      await limits.mail.waitFor(user.email);
    });
  });

  it("limits an administrator's existence checks to 120 a minute, whichever variant each came through", async () => {
    const admin = { email: uniqueEmail('beheer-dego'), password: 'Polder-Molen-Sluis-42', org: 'dego', admin: true };
    await createMember(limits, admin);
    const { browser } = await signInAtAal1(limits, admin.email, admin.password);
    const cookie = await browser.jar.getCookieString(limits.publicUrl);
    const check = (index: number) =>
      call(limits.publicUrl, `${variant('/api/users', index)}?email=${encodeURIComponent(uniqueEmail('bestaat'))}`, {
        method: 'HEAD',
        from: '127.0.0.71',
        headers: { cookie },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) statuses.push((await check(i)).status);
    expect(new Set(statuses)).toEqual(new Set([404]));
    expect((await check(120)).status).toBe(429);
    expect((await check(121)).status).toBe(429);
  });
});

describe('IPv6 clients', () => {
  let ipv6: Portaal | undefined;
  let loopback6 = false;
  beforeAll(async () => {
    loopback6 = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(0, '::1', () => probe.close(() => resolve(true)));
    });
    if (loopback6) ipv6 = await startPortaal({ env: { HOST: '::1', LOGIN_MAX_FAILURES_PER_ADDRESS: '4' } });
  });
  afterAll(async () => {
    await ipv6?.stop();
  });

  // Only `::1` is certain to exist on a test machine, so the /64 bucketing is shown through a trusted proxy's
  // X-Forwarded-For below (docs/security.md#46-which-client-address-counts).
  it('are counted and locked by their address too', async (context) => {
    if (!loopback6 || !ipv6) return context.skip();
    const server = { ...ipv6, publicUrl: `http://[::1]:${new URL(ipv6.publicUrl).port}` };
    const user = await createPasswordIdentity(identityApi(ipv6.adminUrl));
    for (let i = 0; i < 4; i += 1) {
      const failed = await passwordAttempt(server, '::1', uniqueEmail('geraden'), 'Fout-wachtwoord-1', i);
      expect(messageIds(failed.json())).toEqual([4000006]);
    }
    const locked = await passwordAttempt(server, '::1', user.email, user.password);
    expect(locked.status).toBe(400);
    expect(messageIds(locked.json())).toEqual([4000006]);
  });
});

describe('clients behind a trusted proxy', () => {
  // The per-address limit counts IPv6 clients per /64 (docs/security.md#46-which-client-address-counts): a client
  // owns a whole /64 and can pick any address in it. The test machine has one IPv6 address, so the addresses come in
  // X-Forwarded-For from a trusted proxy (the test process, on loopback), exactly as behind a real one.
  const PER_ADDRESS = 3;
  let proxied: Portaal;
  beforeAll(async () => {
    proxied = await startPortaal({
      env: { TRUSTED_PROXIES: 'loopback', LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS) },
    });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  async function signInFrom(forwardedFor: string, identifier: string, password: string) {
    const headers = { accept: 'application/json', 'x-forwarded-for': forwardedFor };
    const flow = (await (await fetch(`${proxied.publicUrl}/self-service/login/api`, { headers })).json()) as {
      id: string;
    };
    const answer = await fetch(`${proxied.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'password', identifier, password }),
    });
    return { status: answer.status, body: await answer.json() };
  }

  it('are counted per /64: other addresses and spellings in it share the limit, the next /64 has its own', async () => {
    const user = await createPasswordIdentity(identityApi(proxied.adminUrl));
    // Three addresses of 2001:db8:1:2::/64, written three ways (compressed, in full with leading zeros, upper case).
    const sameNetwork = ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:fffe', '2001:DB8:1:2:ABCD::9'];
    for (const address of sameNetwork) {
      const failed = await signInFrom(address, uniqueEmail('geraden'), 'Fout-wachtwoord-1');
      expect(messageIds(failed.body)).toEqual([4000006]);
    }
    // A fourth address of the same /64, with the right password: locked like the three before it.
    const locked = await signInFrom('2001:db8:1:2:dead:beef:0:1', user.email, user.password);
    expect(locked.status).toBe(400);
    expect(messageIds(locked.body)).toEqual([4000006]);
    // The neighbouring /64 and an IPv4 client are someone else.
    const neighbour = await signInFrom('2001:db8:1:3::1', user.email, user.password);
    expect(neighbour.status).toBe(200);
    expect(neighbour.body.session.identity.id).toBe(user.id);
    const ipv4 = await signInFrom('192.0.2.10', user.email, user.password);
    expect(ipv4.status).toBe(200);
  });

  it('are counted without the port a proxy may add: each new connection of one client shares its limit', async () => {
    const user = await createPasswordIdentity(identityApi(proxied.adminUrl));
    for (const [client, other] of [
      ['198.51.100.7:50001', '198.51.100.7:50009'],
      ['[2001:db8:9:9::1]:50001', '2001:db8:9:9::2'],
    ] as const) {
      for (let port = 2; port <= 4; port += 1) {
        const failed = await signInFrom(client.replace(/1$/, String(port)), uniqueEmail('geraden'), 'Wrong-1');
        expect(messageIds(failed.body)).toEqual([4000006]);
      }
      const locked = await signInFrom(other, user.email, user.password);
      expect(locked.status, `${other} after three failures from ${client} with other ports`).toBe(400);
      expect(messageIds(locked.body)).toEqual([4000006]);
    }
  });
});

describe('a flood of sign-ins on a full hash queue', () => {
  it(
    'answers 503 with Retry-After through every variant and browser flow, counts no refusal as a failed ' +
      'sign-in, and signs in afterwards',
    async () => {
      const user = await createPasswordIdentity(identityApi(flood.adminUrl));
      const failuresBefore = await signInCount(flood, 'failure');
      const attempts = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const browser = newBrowser(flood.publicUrl);
          const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
          return { browser, flow, i };
        }),
      );
      const answers = await Promise.all(
        attempts.map(async ({ browser, flow, i }) => {
          const response = await browser.fetch(
            `${flood.publicUrl}${variant('/self-service/login', i)}?flow=${flow.id}`,
            {
              method: 'POST',
              headers: { accept: 'application/json', 'content-type': 'application/json' },
              body: JSON.stringify({
                method: 'password',
                identifier: i % 2 === 0 ? user.email : uniqueEmail('onbekend'),
                password: i % 2 === 0 ? user.password : 'Fout-wachtwoord-1',
                csrf_token: csrfTokenOf(flow),
              }),
            },
          );
          return {
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            body: await response.json(),
          };
        }),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.every((s) => s === 200 || s === 400 || s === 503),
        statuses.join(),
      ).toBe(true);
      const refused = answers.filter((a) => a.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.body.error.code).toBe(503);
      }
      // Only the unknown accounts that were heard out count as failures; a 503 is no failed sign-in.
      expect((await signInCount(flood, 'failure')) - failuresBefore).toBe(statuses.filter((s) => s === 400).length);

      const fresh = await loginWithPassword(newBrowser(flood.publicUrl), user.email, user.password);
      expect(fresh.session?.identity?.id).toBe(user.id);
      expect(flood.output()).not.toContain('unexpected error');
    },
  );
});
