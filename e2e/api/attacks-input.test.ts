import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAAL_ARGS, startPortaal, type Portaal } from '../support/portaal.js';
import { identityApi, type Browser } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import {
  DEMO_PASSWORD,
  api,
  createMember,
  getJson,
  relationTuples,
  setPasswordThroughLink,
  signInAtAal1,
} from '../support/portal-users.js';

// Hostile input (docs/security.md items 34 and 38): names and addresses in mails, read as the SMTP server receives
// them (envelope, headers and body); hostile catalogue files through `portaal catalogue load`; hostile bodies for
// the admin listener and the Users API, which must answer 4xx, never 5xx, and write nothing.

const MAIL_FROM_NAME = 'Datavoorzieningen Portaal';

interface RawMail {
  rcptTo: string[];
  mailFrom: string;
  raw: string;
  parsed: ParsedMail;
}

/** An SMTP server that keeps each mail as it arrived: the envelope and the raw source, besides the parsed form. */
async function startRawSink() {
  const mails: RawMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then((parsed) => {
          mails.push({
            rcptTo: session.envelope.rcptTo.map((a) => a.address.toLowerCase()),
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            raw,
            parsed,
          });
          callback();
        }, callback);
      });
    },
  });
  // Port 0: the system gives a free port as it binds, which no other test's process can take meanwhile.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(address: string, since: number, subject?: string): Promise<RawMail> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = mails
          .slice(since)
          .find((m) => m.rcptTo.includes(address.toLowerCase()) && (!subject || m.parsed.subject === subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sink: Awaited<ReturnType<typeof startRawSink>>;
let portaal: Portaal;
let admin: Browser;
let dego: string;
let folder: string;
beforeAll(async () => {
  sink = await startRawSink();
  portaal = await startPortaal({ args: ['--demo'], env: { SMTP_URL: sink.url, REGISTRATION_ENABLED: 'true' } });
  const account = { email: uniqueEmail('beheer-dego'), password: 'Polder-Molen-Sluis-42', org: 'dego', admin: true };
  await createMember(portaal, account);
  admin = (await signInAtAal1(portaal, account.email, account.password)).browser;
  dego = (await api(portaal, admin, 'GET', '/users/whoami')).body.activeOrg.label;
  folder = mkdtempSync(path.join(os.tmpdir(), 'portaal-aanval-'));
});
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  try {
    await portaal?.stop();
  } finally {
    await sink?.close();
  }
});

/** Waits until the courier has sent every mail queued so far. */
async function mailsSettled() {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const metrics = await (await fetch(`${portaal.adminUrl}/metrics`)).text();
    const count = (status: string) =>
      Number(new RegExp(`^portaal_mails\\{status="${status}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    if (count('queued') + count('failed') === 0) return;
    if (Date.now() > deadline) throw new Error('mails still queued');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The header block of a raw mail, folded lines unfolded. */
const headerBlock = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');

/** One mail, to one address, with the product's own sender and subject, in plain text only. */
function expectSafeMail(mail: RawMail, to: string, subject: string, hostile: string[]) {
  expect(mail.rcptTo).toEqual([to.toLowerCase()]);
  expect(mail.mailFrom).toBe('no-reply@localhost');
  const headers = headerBlock(mail.raw);
  const names = headers.split('\r\n').map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
  expect(names.filter((name) => name === 'to')).toHaveLength(1);
  expect(names.filter((name) => name === 'subject')).toHaveLength(1);
  expect(names).not.toContain('cc');
  expect(names).not.toContain('bcc');
  expect(names).not.toContain('reply-to');
  for (const text of hostile) expect(headers).not.toContain(text);
  const parsedTo = [mail.parsed.to].flat().flatMap((t) => t?.value ?? []);
  expect(parsedTo.map((a) => a.address?.toLowerCase())).toEqual([to.toLowerCase()]);
  expect(mail.parsed.from?.value).toEqual([{ name: MAIL_FROM_NAME, address: 'no-reply@localhost' }]);
  expect(mail.parsed.subject).toBe(subject);
  // Plain text only: there is no HTML part in which a name could become markup.
  expect(mail.parsed.html).toBe(false);
  expect(headers).toMatch(/^content-type: text\/plain/im);
  expect(mail.raw).not.toMatch(/content-type: text\/html/i);
}

const hostileNames: [string, string][] = [
  ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>'],
  ['Bcc: kaper@evil.example', '=?UTF-8?B?QmNjOiBrYXBlckBldmlsLmV4YW1wbGU=?='],
  ['Ann & Bob <kaper@evil.example>', "O'Brien; DROP TABLE identities;--"],
  ['Zoë\u2028Bcc: kaper@evil.example', 'Çelik\u2029To: kaper@evil.example'],
];

describe("hostile names in the mails' headers and bodies", () => {
  it.each(hostileNames)('%j %j: an invitation goes to its one address, the name only as text', async (first, last) => {
    const email = uniqueEmail('naam');
    const since = sink.mails.length;
    const created = await api(portaal, admin, 'POST', '/users', {
      traits: { email, name: { first, last } },
      permissions: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const mail = await sink.waitFor(email, since);
    expectSafeMail(mail, email, 'Je account voor het Datavoorzieningen Portaal', [first, last, 'kaper']);
    expect(mail.parsed.text).toContain(`Hallo ${first},`);
    const stored = (await api(portaal, admin, 'GET', `/users?email=${encodeURIComponent(email)}`)).body[0];
    expect(stored.traits.name).toEqual({ first, last });
  });

  it('an invitation to join another organisation and a reset of the second factor: the same', async () => {
    const [first, last] = hostileNames[1]!;
    // Someone outside `dego`, invited to join it.
    const elsewhere = await createPasswordIdentity(identityApi(portaal.adminUrl), { first, last });
    let since = sink.mails.length;
    const invited = await api(portaal, admin, 'POST', '/users', {
      traits: { email: elsewhere.email },
      permissions: [],
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(202);
    let mail = await sink.waitFor(elsewhere.email, since);
    expectSafeMail(mail, elsewhere.email, `Uitnodiging van ${dego} in het Datavoorzieningen Portaal`, [first, 'kaper']);
    expect(mail.parsed.text).toContain(`Hallo ${first},`);

    // A member of `dego` who linked an authenticator app after following the invitation, reset by the administrator.
    const email = uniqueEmail('lid');
    since = sink.mails.length;
    await api(portaal, admin, 'POST', '/users', { traits: { email, name: { first, last } }, permissions: [] });
    const link = /(http:\/\/\S+token=\S+)/.exec((await sink.waitFor(email, since)).parsed.text ?? '')![1]!;
    await setPasswordThroughLink(portaal, email, link, 'Polder-Molen-Sluis-42');
    const id = (await api(portaal, admin, 'GET', `/users?email=${encodeURIComponent(email)}`)).body[0].id;
    since = sink.mails.length;
    expect((await api(portaal, admin, 'DELETE', `/users/${id}/totp`)).status).toBe(204);
    mail = await sink.waitFor(email, since, 'Je tweestapsverificatie is gereset');
    expectSafeMail(mail, email, 'Je tweestapsverificatie is gereset', [first, 'kaper']);
    expect(mail.parsed.text).toContain(`Hallo ${first},`);
  });
});

const hostileAddresses = [
  'iemand@voorbeeldstad.nl, kaper@evil.example',
  'iemand@voorbeeldstad.nl\r\nBcc: kaper@evil.example',
  'iemand@voorbeeldstad.nl\nBcc: kaper@evil.example',
  'Iemand <kaper@evil.example>',
  '"kaper@evil.example"@voorbeeldstad.nl',
  'iemand@voorbeeldstad.nl;kaper@evil.example',
  'kaper@evil.example>',
  'iemand@[127.0.0.1]',
  '=?UTF-8?B?a2FwZXJAZXZpbC5leGFtcGxl?=@voorbeeldstad.nl',
  `${'a'.repeat(400)}@voorbeeldstad.nl`,
  'iemand\u0000@voorbeeldstad.nl',
];

describe("hostile addresses in the mails' envelopes", () => {
  it('are refused by the Users API: 400, nothing written, nothing mailed', async () => {
    await mailsSettled();
    const before = await snapshot();
    const since = sink.mails.length;
    for (const email of hostileAddresses) {
      const answer = await api(portaal, admin, 'POST', '/users', {
        traits: { email, name: { first: 'Kaper', last: 'Kwaad' } },
        permissions: [],
      });
      expect(answer.status, JSON.stringify(email)).toBe(400);
    }
    await mailsSettled();
    expect(sink.mails.slice(since)).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('mail no injected recipient through recovery, verification and registration, and never answer 5xx', async () => {
    await mailsSettled();
    const since = sink.mails.length;
    for (const email of hostileAddresses) {
      for (const kind of ['recovery', 'verification'] as const) {
        const flow = await getJson(`${portaal.publicUrl}/self-service/${kind}/api`);
        const response = await fetch(`${portaal.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ method: 'code', email }),
        });
        expect(response.status, `${kind} ${JSON.stringify(email)}`).toBeLessThan(500);
      }
      const recovery = await api(
        portaal,
        undefined,
        'GET',
        `/users/password-recovery?email=${encodeURIComponent(email)}`,
      );
      expect(recovery.status, JSON.stringify(email)).toBeLessThan(500);
      const flow = await getJson(`${portaal.publicUrl}/self-service/registration/api`);
      const registered = await fetch(`${portaal.publicUrl}/self-service/registration?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          method: 'password',
          traits: { email, name: { first: 'Kaper', last: 'Kwaad' } },
          password: 'Zonnebloem-Kanaal-Fiets-42',
        }),
      });
      expect(registered.status, `registration ${JSON.stringify(email)}`).toBeLessThan(500);
    }
    await mailsSettled();
    // Registration mails a code to an address that was taken as a whole (see the gap below); never to a part of one.
    for (const mail of sink.mails.slice(since)) {
      expect(mail.rcptTo).toHaveLength(1);
      expect(hostileAddresses.map((a) => a.toLowerCase())).toContain(mail.rcptTo[0]);
    }
    expect(sink.mails.slice(since).flatMap((m) => m.rcptTo)).not.toContain('kaper@evil.example');
  });

  // An address the identity schema takes but no mail can go to (docs/security.md#34-sql-and-mail-headers): the
  // courier refuses it, so nothing is injected, and nobody else is mailed.
  it('one the identity schema lets in still mails nobody else', async () => {
    await mailsSettled();
    const identities = identityApi(portaal.adminUrl);
    const email = 'iemand,kaper@voorbeeldstad.nl';
    const created = await identities
      .createIdentity({
        createIdentityBody: { schema_id: 'default', traits: { email, name: { first: 'Komma', last: 'Adres' } } },
      })
      .catch((error: { response: { status: number } }) => error.response);
    expect(created.status).toBeLessThan(500);
    const since = sink.mails.length;
    for (const kind of ['recovery', 'verification'] as const) {
      const flow = await getJson(`${portaal.publicUrl}/self-service/${kind}/api`);
      const response = await fetch(`${portaal.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'code', email }),
      });
      expect(response.status).toBeLessThan(500);
    }
    await mailsSettled();
    expect(sink.mails.slice(since)).toEqual([]);
  });

  // The identity schema refuses what the courier would refuse (and domain literals, which the courier would send to
  // any host), so every account can receive its mails (packages/idp/src/identities/identity-schema.ts).
  it('such addresses are refused when the account is made', async () => {
    for (const email of ['ander;kaper@voorbeeldstad.nl', 'iemand@[10.0.0.5]']) {
      const answer = await fetch(`${portaal.adminUrl}/admin/identities`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schema_id: 'default', traits: { email, name: { first: 'Punt', last: 'Komma' } } }),
      });
      expect(answer.status, email).toBe(400);
    }
  });
});

/** The catalogue as a member of `dego` sees it, to show that no refused file changed it. */
let analist: Browser;
let catalogueBefore: unknown;
let lastLoad = 0;
const catalogueInForce = async () => {
  const whoami = (await api(portaal, analist, 'GET', '/users/whoami')).body;
  const services = (await api(portaal, analist, 'GET', '/services')).body;
  return { org: whoami.activeOrg, services };
};

describe('portaal catalogue load with hostile JSON', () => {
  const demo = readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8');
  beforeAll(async () => {
    analist = (await signInAtAal1(portaal, 'analist@dego.nl', DEMO_PASSWORD)).browser;
    catalogueBefore = await catalogueInForce();
  });

  function load(file: string) {
    const result = spawnSync(process.execPath, [...PORTAAL_ARGS, 'catalogue', 'load', file], {
      env: portaal.env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    lastLoad = Date.now();
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
  }

  /** A file made from the demo catalogue by `change`, written as JSON text by `text` (default: as is). */
  function file(name: string, change: (catalogue: any) => void, text = (json: string) => json) {
    const catalogue = JSON.parse(demo);
    change(catalogue);
    const target = path.join(folder, name);
    writeFileSync(target, text(JSON.stringify(catalogue)));
    return target;
  }

  const cases: [string, () => string, RegExp][] = [
    [
      'a __proto__ key in an organisation',
      () =>
        file(
          'proto.json',
          () => {},
          (json) => json.replace('{"id":', '{"__proto__":{"requiresAal2":false},"id":'),
        ),
      /organisations\[0\]: .*__proto__/,
    ],
    [
      'a constructor.prototype key in a service',
      () =>
        file('constructor.json', (c) => {
          c.services[0].access.constructor = { prototype: { organisations: ['dego'] } };
        }),
      /services\[0\]\.access: .*constructor/,
    ],
    [
      'a million nested arrays',
      () =>
        file(
          'diep.json',
          () => {},
          (json) =>
            json.replace('"organisations":[', `"organisations":[${'['.repeat(1_000_000)}${']'.repeat(1_000_000)},`),
        ),
      /organisations\[0\]/,
    ],
    [
      'a file of 6 MB',
      () =>
        file(
          'groot.json',
          () => {},
          (json) => json.replace('{', `{${' '.repeat(6 * 1024 * 1024)}`),
        ),
      /groter dan 5 MB/,
    ],
    ['a device that never ends', () => '/dev/zero', /groter dan 5 MB/],
    [
      'a line break and a header in a label',
      () =>
        file('kop.json', (c) => {
          c.organisations[0].label = 'Gemeente\r\nBcc: kaper@evil.example';
        }),
      /organisations\[0\]\.label/,
    ],
    [
      'a right-to-left override in a data role',
      () =>
        file('omgekeerd.json', (c) => {
          c.organisations[0].dataRoles[0].label = '\u202elortnoc';
        }),
      /organisations\[0\]\.dataRoles\[0\]\.label/,
    ],
  ];

  it.each(cases)('refuses %s in one line, exit code 1, no stack trace', (_name, make, reason) => {
    const target = make();
    if (target === '/dev/zero' && !existsSync(target)) return;
    const started = Date.now();
    const result = load(target);
    expect(result.error).toBeUndefined();
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Catalogus niet geladen: /);
    expect(lines[0]).toMatch(reason);
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

/** Everything a refused request must leave alone, read through the admin listener. */
async function snapshot(): Promise<string> {
  const identities = await getJson(
    `${portaal.adminUrl}/admin/identities?page_size=500&include_credential=password&include_credential=totp`,
  );
  const tuples = await relationTuples(portaal, {});
  const metrics = await (await fetch(`${portaal.adminUrl}/metrics`)).text();
  const mails = [...metrics.matchAll(/^portaal_mails\{status="\w+"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return JSON.stringify({ identities, tuples, mails });
}

const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
/** JSON texts put in place of one field; each must be refused wherever a field is expected. */
const hostileValues: [string, string][] = [
  ['an array nested 100 000 deep', deepArray],
  ['an object nested 50 000 deep', deepObject],
  ['a __proto__ key', '{"__proto__":{"admin":true},"a":1}'],
  ['a constructor.prototype key', '{"constructor":{"prototype":{"admin":true}}}'],
  ['a NUL character', '"kaper\\u0000"'],
  ['a number beyond double', '1e400'],
];
/** Whole bodies, whatever the route. */
const hostileBodies: [string, string, string][] = [
  ['an array nested 100 000 deep', deepArray, 'application/json'],
  ['a __proto__ key', '{"__proto__":{"admin":true}}', 'application/json'],
  ['over the body limit', JSON.stringify({ traits: 'x'.repeat(300_000) }), 'application/json'],
  ['broken JSON', '{"schema_id":', 'application/json'],
  ['an empty body', '', 'application/json'],
  ['null', 'null', 'application/json'],
  ['a string', '"x"', 'application/json'],
  ['text', 'schema_id=default', 'text/plain'],
  ['a form', 'schema_id=default&traits=x', 'application/x-www-form-urlencoded'],
  ['XML', '<identity/>', 'application/xml'],
];

interface Target {
  method: string;
  path: string;
  /** JSON text with `@@` where a hostile value goes; every such body must be refused or be a conflict. */
  templates: string[];
  listener: 'admin' | 'public';
  /** A check writes nothing and may answer a refused question with `allowed: false`. */
  readOnly?: boolean;
}

describe('hostile bodies for the admin listener and the Users API', () => {
  let taken: string;
  let victim: string;
  let member: string;
  let targets: Target[];
  beforeAll(async () => {
    const identities = identityApi(portaal.adminUrl);
    taken = (await createPasswordIdentity(identities)).email;
    victim = (await createPasswordIdentity(identities)).id;
    const account = { email: uniqueEmail('lid'), password: 'Polder-Molen-Sluis-42', org: 'dego' };
    await createMember(portaal, account);
    member = (await api(portaal, admin, 'GET', `/users?email=${encodeURIComponent(account.email)}`)).body[0].id;
    const name = '{"first":"Kaper","last":"Kwaad"}';
    // A body that got through would still end in a conflict: the address is taken.
    const traits = `{"email":"${taken}","name":${name}}`;
    targets = [
      {
        listener: 'admin',
        method: 'POST',
        path: '/admin/identities',
        templates: [
          `{"schema_id":"default","traits":${traits},"metadata_public":@@}`,
          `{"schema_id":"default","traits":${traits},"metadata_admin":@@}`,
          `{"schema_id":"default","traits":${traits},"external_id":@@}`,
          `{"schema_id":"default","traits":@@}`,
          `{"schema_id":"default","traits":{"email":"${taken}","name":@@}}`,
          `{"schema_id":"default","traits":${traits},"credentials":{"password":{"config":{"hashed_password":@@}}}}`,
          `{"schema_id":"default","traits":${traits},"verifiable_addresses":[{"value":@@,"verified":true}]}`,
          `{"schema_id":@@,"traits":${traits}}`,
        ],
      },
      {
        listener: 'admin',
        method: 'PUT',
        path: `/admin/identities/${victim}`,
        templates: [
          `{"schema_id":"default","state":"active","traits":${traits},"metadata_admin":@@}`,
          `{"schema_id":"default","state":"active","traits":${traits},"external_id":@@}`,
          `{"schema_id":"default","state":@@,"traits":${traits}}`,
        ],
      },
      {
        listener: 'admin',
        method: 'PATCH',
        path: `/admin/identities/${victim}`,
        templates: [
          '[{"op":"replace","path":"/metadata_public","value":@@},' +
            `{"op":"replace","path":"/traits/email","value":"${taken}"}]`,
          '[{"op":"add","path":@@,"value":1}]',
          '[{"op":"add","path":"/__proto__/admin","value":@@}]',
          '[{"op":"add","path":"/metadata_public/constructor/prototype/admin","value":@@}]',
          '@@',
        ],
      },
      {
        listener: 'admin',
        method: 'POST',
        path: '/admin/recovery/link',
        templates: ['{"identity_id":@@}', `{"identity_id":"${victim}","expires_in":@@}`],
      },
      {
        listener: 'admin',
        method: 'POST',
        path: '/admin/recovery/code',
        templates: [`{"identity_id":"${victim}","flow_type":@@}`],
      },
      {
        listener: 'admin',
        method: 'PUT',
        path: '/admin/relation-tuples',
        templates: [
          '{"namespace":@@,"object":"dego","relation":"admin","subject_id":"kaper"}',
          '{"namespace":"organizations","object":@@,"relation":"admin","subject_id":"kaper"}',
          '{"namespace":"organizations","object":"dego","relation":"admin","subject_id":@@}',
          '{"namespace":"organizations","object":"dego","relation":"admin","subject_set":@@}',
        ],
      },
      {
        listener: 'admin',
        method: 'PATCH',
        path: '/admin/relation-tuples',
        templates: [
          '[{"action":"insert","relation_tuple":' +
            '{"namespace":"organizations","object":@@,"relation":"admin","subject_id":"kaper"}}]',
          '[{"action":@@,"relation_tuple":' +
            '{"namespace":"organizations","object":"dego","relation":"admin","subject_id":"kaper"}}]',
        ],
      },
      {
        listener: 'admin',
        readOnly: true,
        method: 'POST',
        path: '/relation-tuples/check',
        templates: ['{"namespace":"organizations","object":@@,"relation":"admin","subject_id":"kaper"}'],
      },
      {
        listener: 'public',
        method: 'POST',
        path: '/api/users',
        templates: [
          '{"traits":{"email":@@,"name":{"first":"Kaper","last":"Kwaad"}},"permissions":[]}',
          `{"traits":{"email":"${uniqueEmail('nieuw')}","name":{"first":@@,"last":"Kwaad"}},"permissions":[]}`,
          `{"traits":{"email":"${uniqueEmail('nieuw')}","name":${name}},"permissions":@@}`,
          `{"traits":{"email":"${uniqueEmail('nieuw')}","name":${name}},` +
            '"permissions":[{"namespace":"organizations","object":@@,"relation":"admin"}]}',
        ],
      },
      {
        listener: 'public',
        method: 'PUT',
        path: `/api/users/${member}`,
        templates: [`{"traits":{"email":"${taken}","name":{"first":@@,"last":"Kwaad"}}}`, '{"state":@@}'],
      },
      {
        listener: 'public',
        method: 'PUT',
        path: `/api/permissions/${member}`,
        templates: ['@@', '[{"namespace":"organizations","object":@@,"relation":"admin"}]'],
      },
      {
        listener: 'public',
        method: 'PUT',
        path: '/api/users/active-organisation',
        templates: ['{"organisation":@@}'],
      },
    ];
  });

  async function send(target: Target, body: string, contentType = 'application/json') {
    const base = target.listener === 'admin' ? portaal.adminUrl : portaal.publicUrl;
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': contentType };
    if (target.listener === 'public') headers.origin = portaal.publicUrl;
    const response = await (target.listener === 'public' ? admin.fetch : fetch)(`${base}${target.path}`, {
      method: target.method,
      headers,
      body,
    });
    return { status: response.status, text: await response.text() };
  }

  it('answers every hostile value in every field with a 4xx and writes nothing', async () => {
    for (const target of targets) {
      const before = await snapshot();
      for (const template of target.templates) {
        for (const [name, value] of hostileValues) {
          const answer = await send(target, template.replace('@@', value));
          const sent = `${target.method} ${target.path} ${template.slice(0, 80)}`;
          const what = `${sent} with ${name}: ${answer.text.slice(0, 200)}`;
          if (!target.readOnly) expect(answer.status, what).toBeGreaterThanOrEqual(400);
          expect(answer.status, what).toBeLessThan(500);
        }
      }
      expect(await snapshot(), `${target.method} ${target.path}`).toBe(before);
    }
    expect(portaal.output()).not.toContain('unexpected error');
  });

  it('answers hostile whole bodies with a 4xx and writes nothing', async () => {
    const before = await snapshot();
    for (const target of targets) {
      for (const [name, body, contentType] of hostileBodies) {
        const answer = await send(target, body, contentType);
        const what = `${target.method} ${target.path} with ${name}: ${answer.text.slice(0, 200)}`;
        if (!target.readOnly) expect(answer.status, what).toBeGreaterThanOrEqual(400);
        expect(answer.status, what).toBeLessThan(500);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('answers NUL characters in queries and public submits with a 4xx on every database', async () => {
    const before = await snapshot();
    const reads = [
      `${portaal.adminUrl}/admin/identities?credentials_identifier=kaper%00`,
      `${portaal.adminUrl}/relation-tuples?namespace=organizations&object=dego%00`,
      `${portaal.adminUrl}/relation-tuples/check?namespace=organizations&object=dego%00&relation=admin&subject_id=x`,
      `${portaal.publicUrl}/api/users/password-recovery?email=kaper%00%40voorbeeldstad.nl`,
    ];
    for (const url of reads) {
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
    }
    const removal = await fetch(`${portaal.adminUrl}/admin/relation-tuples?namespace=organizations&object=dego%00`, {
      method: 'DELETE',
    });
    expect(removal.status).toBeLessThan(500);
    const flow = await getJson(`${portaal.publicUrl}/self-service/login/api`);
    for (const [contentType, body] of [
      [
        'application/json',
        JSON.stringify({ method: 'password', identifier: 'kaper\u0000@x.nl', password: 'x'.repeat(12) }),
      ],
      ['application/x-www-form-urlencoded', 'method=password&identifier=kaper%00%40x.nl&password=xxxxxxxxxxxx'],
    ] as const) {
      const response = await fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': contentType },
        body,
      });
      expect(response.status, contentType).toBeGreaterThanOrEqual(400);
      expect(response.status, contentType).toBeLessThan(500);
    }
    expect(await snapshot()).toBe(before);
  });
});

// Last, so that the other tests pass the time the server trusts a catalogue it read (5 s,
// packages/users-api/src/catalogue/catalogue-source.ts) and it reads again.
describe('after the hostile catalogue files', () => {
  it('the catalogue in force is the one before them', async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5_500 - (Date.now() - lastLoad))));
    expect(await catalogueInForce()).toEqual(catalogueBefore);
  });
});
