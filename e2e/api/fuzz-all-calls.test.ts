import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, identityApi, newBrowser, newNativeClient, type Browser } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { loginWithPassword } from '../support/flows.js';
import { api, createMember, DEMO_PASSWORD } from '../support/portal-users.js';

// Every Users API call and every self-service flow submit, with generated paths, queries, headers and bodies, by
// every kind of caller: at least 10,000 requests a run, sent 25 at a time over keep-alive connections (Node's fetch
// keeps them). No answer is a 5xx, every refusal has its envelope, and a batch of refusals (and reads) leaves every
// row of what a request may change as it was: identities, credentials, addresses, sessions, codes, mails, tuples,
// invitations and the catalogue. Flows, errors, throttles and the audit log are left out: a refusal writes those by
// design (the flow's messages, the failure count, the audit entry of a refused administrative action).
// docs/security.md#38-request-bodies-are-validated.

const BATCH = 25;
const RUNS = 400;
const KINDS = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;

let portaal: Portaal;
/** Each compared table's rows, each row as JSON text, sorted. */
type Tables = string[][];
let readTables: () => Promise<Tables>;
let closeTables: () => Promise<void>;

/** Who sends a request: a browser with a session, a native client with a token, or nobody in particular. */
type CallerName = 'admin' | 'member' | 'aal1' | 'anonymous' | 'settings';
const browsers = {} as Record<CallerName, Browser>;
const accounts = {} as Record<Exclude<CallerName, 'anonymous'>, { id: string; email: string; password: string }>;
let settingsToken: string;
const flowPool: Record<string, { id: string; csrf?: string }[]> = {};
const pools = { ids: [] as string[], emails: [] as string[], orgs: [] as string[], invitations: [] as string[] };

const ADMIN_PASSWORD = 'Kanaal-Tulp-Brug-31';

// What a request may change, per table; volatile columns (the idle clock, the courier's attempts) left out.
const COMPARED: [table: string, columns: string][] = [
  ['identities', '*'],
  ['identity_credentials', '*'],
  ['identity_credential_identifiers', '*'],
  ['identity_verifiable_addresses', '*'],
  ['identity_recovery_addresses', '*'],
  [
    'sessions',
    'id, token_hash, previous_token_hash, previous_token_expires_at, identity_id, active, ' +
      'authentication_methods, authenticated_at, issued_at, expires_at',
  ],
  ['one_time_codes', '*'],
  ['courier_messages', 'id, recipient, subject, template_type'],
  ['relation_tuples', '*'],
  ['organisation_invitations', '*'],
  ['catalogue_organisations', '*'],
  ['catalogue_data_roles', '*'],
  ['catalogue_services', '*'],
  ['catalogue_service_access', '*'],
];

/** Opens the test server's database for reading, straight, on SQLite or PostgreSQL. */
async function openTables(): Promise<void> {
  const query = (table: string, columns: string) => `select ${columns} from ${table}`;
  const canonical = (tables: unknown[][]): Tables =>
    tables.map((rows) => rows.map((row) => JSON.stringify(row)).sort());
  const url = portaal.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Every table in one statement, so a comparison costs one round trip.
    const all = `select ${COMPARED.map(
      ([table, columns], i) => `(select coalesce(json_agg(t), '[]') from (${query(table, columns)}) t) as t${i}`,
    ).join(', ')}`;
    readTables = async () => {
      const [row] = (await client.query(all)).rows as Record<string, unknown[]>[];
      return canonical(COMPARED.map((_entry, i) => row![`t${i}`]!));
    };
    closeTables = () => client.end();
    return;
  }
  const db = new Database(path.join(portaal.dataDir, 'portaal.sqlite'), { readonly: true });
  readTables = async () => canonical(COMPARED.map(([table, columns]) => db.prepare(query(table, columns)).all()));
  closeTables = async () => void db.close();
}

async function idOf(email: string): Promise<string> {
  const response = await fetch(`${portaal.adminUrl}/admin/identities?credentials_identifier=${email}`);
  const [identity] = (await response.json()) as { id: string }[];
  return identity!.id;
}

/** Signs a caller in again after a generated request ended its session or blocked it (both may be accepted). */
async function revive(name: Exclude<CallerName, 'anonymous' | 'settings'>): Promise<void> {
  const browser = browsers[name];
  if ((await browser.fetch(`${portaal.publicUrl}/sessions/whoami`)).status === 200) return;
  const account = accounts[name];
  await identityApi(portaal.adminUrl).patchIdentity({
    id: account.id,
    jsonPatch: [{ op: 'replace', path: '/state', value: 'active' }],
  });
  await loginWithPassword(browser, account.email, account.password);
}

beforeAll(async () => {
  portaal = await startPortaal({
    args: ['--demo'],
    // The generated sign-ins fail by the thousand from one address; the callers must still sign in again.
    env: { REGISTRATION_ENABLED: 'true', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000' },
  });
  await openTables();
  const identities = identityApi(portaal.adminUrl);
  // An administrator of an organisation without a second factor, so that signing in again needs only the password.
  const adminEmail = uniqueEmail('bh').replace('voorbeeldstad.nl', 'dego.nl');
  await createMember(portaal, { email: adminEmail, password: ADMIN_PASSWORD, org: 'dego', admin: true });
  accounts.admin = { id: await idOf(adminEmail), email: adminEmail, password: ADMIN_PASSWORD };
  accounts.member = { id: await idOf('analist@dego.nl'), email: 'analist@dego.nl', password: DEMO_PASSWORD };
  const aal1Email = 'medewerker@voorbeeldstad.nl';
  accounts.aal1 = { id: await idOf(aal1Email), email: aal1Email, password: DEMO_PASSWORD };
  const settings = await createPasswordIdentity(identities);
  accounts.settings = settings;
  for (const name of ['admin', 'member', 'aal1', 'settings'] as const) {
    browsers[name] = newBrowser(portaal.publicUrl);
    await loginWithPassword(browsers[name], accounts[name].email, accounts[name].password);
  }
  browsers.anonymous = newBrowser(portaal.publicUrl);
  const native = newNativeClient(portaal.publicUrl);
  const login = await native.createNativeLoginFlow({});
  settingsToken = (
    await explained(
      native.updateLoginFlow({
        flow: login.id,
        updateLoginFlowBody: { method: 'password', identifier: settings.email, password: settings.password },
      }),
    )
  ).session_token!;

  // Members of the administrator's organisation whom accepted requests may change, block or delete.
  const victims: string[] = [];
  for (let i = 0; i < 3; i++) {
    const email = uniqueEmail('lid').replace('voorbeeldstad.nl', 'dego.nl');
    const created = await api(portaal, browsers.admin, 'POST', '/users', {
      traits: { email, name: { first: 'Lid', last: `Nummer ${i}` } },
      permissions: [{ namespace: 'subdivisions', object: 'analyse_dego', relation: 'issuer' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    victims.push(email);
  }
  // An invitation of the member of another organisation to this one, for the invitation calls.
  const invited = await api(portaal, browsers.admin, 'POST', '/users', {
    traits: { email: 'medewerker@voorbeeldstad.nl' },
    permissions: [],
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(202);
  pools.invitations.push(invited.body.invitation.id);
  const beheerder = await idOf('beheerder@voorbeeldstad.nl');
  const members = (await api(portaal, browsers.admin, 'GET', '/users')).body as { id: string; traits: any }[];
  const victimIds = members.filter((m) => victims.includes(m.traits.email)).map((m) => m.id);
  expect(victimIds).toHaveLength(victims.length);
  pools.ids.push(accounts.admin.id, accounts.aal1.id, beheerder, ...victimIds);
  pools.emails.push(...victims, 'beheerder@voorbeeldstad.nl', settings.email);
  pools.orgs.push('dego', 'voorbeeldstad', 'dijkstad', 'analyse_dego', 'ruimte_voorbeeldstad');

  // A few flows of every kind and mode; settings belong to the settings account's browser and token.
  for (const kind of KINDS) {
    for (const mode of ['browser', 'api'] as const) {
      const key = `${kind}:${mode}`;
      flowPool[key] = [];
      for (let i = 0; i < 3; i++) {
        if (mode === 'api') {
          const headers: Record<string, string> = { accept: 'application/json' };
          if (kind === 'settings') headers['X-Session-Token'] = settingsToken;
          const response = await fetch(`${portaal.publicUrl}/self-service/${kind}/api`, { headers });
          flowPool[key].push({ id: ((await response.json()) as { id: string }).id });
        } else {
          const browser = kind === 'settings' ? browsers.settings : browsers.anonymous;
          const response = await browser.fetch(`${portaal.publicUrl}/self-service/${kind}/browser`, {
            headers: { accept: 'application/json' },
          });
          const flow = (await response.json()) as { id: string; ui: { nodes: any[] } };
          flowPool[key].push({ id: flow.id, csrf: csrfTokenOf(flow) });
        }
      }
    }
  }
});
afterAll(async () => {
  await closeTables?.();
  await portaal?.stop();
});

// Strings an attacker tries in any position.
const HOSTILE = [
  '',
  ' ',
  '../',
  '..%2f..%2fadmin',
  '%2e%2e%2f',
  "' or '1'='1",
  '1; drop table identities; --',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '$' + '{jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '\u202eevil',
  '😀',
  'x'.repeat(5000),
  'a@b',
  'iemand@[10.0.0.5]',
  'ory_st_0000000000000000000000000000000',
];

function generators() {
  const hostile = fc.constantFrom(...HOSTILE);
  const text = fc.oneof(fc.string({ maxLength: 30 }), hostile, fc.constantFrom(...pools.emails, ...pools.orgs));
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pools.ids, ...pools.invitations) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
    { weight: 2, arbitrary: text },
  );
  const scalar = fc.oneof(
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  );
  const email = fc.oneof(fc.constantFrom(...pools.emails), fc.emailAddress(), text);
  const name = fc.oneof(fc.string({ maxLength: 60 }), hostile);
  const traits = fc.record(
    { email, name: fc.oneof(fc.record({ first: name, last: name }, { requiredKeys: [] }), scalar) },
    { requiredKeys: [] },
  );
  const permission = fc.record(
    {
      namespace: fc.oneof(fc.constantFrom('organizations', 'subdivisions'), text),
      object: fc.oneof(fc.constantFrom(...pools.orgs), text),
      relation: fc.oneof(fc.constantFrom('admin', 'issuer', 'access', 'member'), text),
      subject_id: id,
    },
    { requiredKeys: [] },
  );
  const apiFields = fc.dictionary(
    fc.constantFrom(
      'traits',
      'permissions',
      'state',
      'schema_id',
      'organisation',
      'id',
      'email',
      'namespace',
      'object',
      'relation',
      'subject_id',
      'identity',
      'session',
      '__proto__',
      'constructor',
    ),
    fc.oneof(
      scalar,
      traits,
      fc.array(permission, { maxLength: 3 }),
      fc.constantFrom('active', 'inactive', 'default'),
      fc.constantFrom(...pools.orgs),
    ),
    { maxKeys: 4 },
  );
  const flowFields = fc.dictionary(
    fc.constantFrom(
      'method',
      'identifier',
      'password',
      'csrf_token',
      'traits',
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
      'refresh',
      '__proto__',
      'constructor',
    ),
    fc.oneof(
      scalar,
      traits,
      email,
      fc.constantFrom('password', 'code', 'link', 'totp', 'lookup_secret', 'profile', 'oidc', 'webauthn', 'true'),
      fc.stringMatching(/^[0-9]{6}$/),
    ),
    { maxKeys: 5 },
  );
  const body = (fields: fc.Arbitrary<Record<string, unknown>>) =>
    fc.oneof(
      { weight: 6, arbitrary: fields.map((value) => ({ kind: 'json' as const, value })) },
      { weight: 2, arbitrary: fields.map((value) => ({ kind: 'form' as const, value })) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json' as const, value })) },
      {
        weight: 1,
        arbitrary: fc
          .oneof(fc.string({ maxLength: 100 }), fc.constantFrom('{', '{"a":', '[]', 'null', '"x"', '{"a":1}}'))
          .map((text) => ({ kind: 'raw' as const, text, type: 'application/json' })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=utf-16')
          .map((type) => ({ kind: 'raw' as const, text: '{"a":1}', type })),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    );
  const query = (keys: string[]) =>
    fc.dictionary(
      fc.constantFrom(...keys, 'page_size', 'page_token', 'email', 'id', '__proto__', 'x'),
      fc.oneof(text, id, fc.integer().map(String), fc.base64String({ maxLength: 60 })),
      { maxKeys: 4 },
    );
  return { id, text, body, query, apiFields, flowFields };
}

interface ApiRoute {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: string[];
  /** A GET that may still change something (it queues a mail). */
  writes?: boolean;
}

// Every route of packages/users-api/src/routes.
const API_ROUTES: ApiRoute[] = [
  { method: 'GET', path: '/config' },
  { method: 'GET', path: '/users/whoami' },
  { method: 'GET', path: '/users/configured-credentials' },
  { method: 'GET', path: '/users/security-keys' },
  { method: 'GET', path: '/users/admins' },
  { method: 'GET', path: '/services' },
  { method: 'GET', path: '/users/password-recovery', query: ['email'], writes: true },
  { method: 'GET', path: '/users', query: ['email', 'page', 'per_page', 'sort', 'q'] },
  { method: 'GET', path: '/users.csv', query: ['sort', 'q'] },
  { method: 'HEAD', path: '/users', query: ['email'] },
  { method: 'POST', path: '/users' },
  { method: 'PUT', path: '/users/:id' },
  { method: 'DELETE', path: '/users', query: ['id'] },
  { method: 'DELETE', path: '/users/:id/totp' },
  { method: 'DELETE', path: '/users/:id/sessions' },
  { method: 'DELETE', path: '/users/:id/lock' },
  { method: 'GET', path: '/audit', query: ['page_size', 'page_token'] },
  { method: 'GET', path: '/audit.csv', query: ['person', 'action', 'from', 'until'], writes: true },
  { method: 'GET', path: '/access-review' },
  { method: 'POST', path: '/access-reviews' },
  { method: 'GET', path: '/access-reviews' },
  { method: 'GET', path: '/access-reviews/:id.csv', writes: true },
  { method: 'POST', path: '/imports' },
  { method: 'POST', path: '/imports/:id/start' },
  { method: 'GET', path: '/imports/:id' },
  { method: 'GET', path: '/imports/:id/rows' },
  { method: 'GET', path: '/imports/:id/report.csv' },
  { method: 'PUT', path: '/users/active-organisation' },
  { method: 'DELETE', path: '/users/organisations/:id' },
  { method: 'POST', path: '/invitations/:id/accept' },
  { method: 'POST', path: '/invitations/:id/decline' },
  { method: 'POST', path: '/invitations/:id/resend' },
  { method: 'DELETE', path: '/invitations/:id' },
  { method: 'PUT', path: '/permissions/:id' },
  { method: 'DELETE', path: '/permissions', query: ['namespace', 'object', 'relation', 'subject_id'] },
  { method: 'POST', path: '/hooks/kratos/login' },
  { method: 'GET', path: '/forward-auth', query: ['service', 'redirect'] },
];

/** What a reverse proxy forwards to `/forward-auth`: hosts known, unknown and malformed, and odd paths. */
const FORWARDED_HOSTS = [
  undefined,
  'wijkmonitor.voorbeeld.nl',
  'WIJKMONITOR.voorbeeld.nl:443',
  'onbekend.example',
  'iemand@wijkmonitor.voorbeeld.nl',
  'wijkmonitor.voorbeeld.nl/pad',
  '[::1',
  'a, b',
];
const FORWARDED_URIS = ['/', '//evil.example/', '/a?b=c,d', 'geen-pad', '/%ZZ'];

type GeneratedBody =
  | { kind: 'json' | 'form'; value: unknown }
  | { kind: 'raw'; text: string; type: string }
  | { kind: 'none' };

interface Generated {
  caller: CallerName;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Whether an accepted answer may have changed rows (a write, or a GET that is one). */
  writes: boolean;
  api: boolean;
}

function encodeBody(body: GeneratedBody, csrf?: string): { type?: string; payload?: string } {
  if (body.kind === 'none') return {};
  if (body.kind === 'raw') return { type: body.type, payload: body.text };
  const value =
    csrf && body.value && typeof body.value === 'object' && !Array.isArray(body.value)
      ? { csrf_token: csrf, ...body.value }
      : body.value;
  if (body.kind === 'json') return { type: 'application/json', payload: JSON.stringify(value) };
  const form = new URLSearchParams();
  for (const [key, v] of Object.entries((value ?? {}) as Record<string, unknown>))
    form.append(key, typeof v === 'string' ? v : JSON.stringify(v));
  return { type: 'application/x-www-form-urlencoded', payload: form.toString() };
}

const queryString = (fields: Record<string, string>) => {
  const search = new URLSearchParams(fields).toString();
  return search ? `?${search}` : '';
};

function requests(): fc.Arbitrary<Generated> {
  const g = generators();
  const apiCall = fc
    .record({
      route: fc.constantFrom(...API_ROUTES),
      id: g.id,
      caller: fc.constantFrom<CallerName>('admin', 'admin', 'admin', 'member', 'aal1', 'anonymous'),
      origin: fc.constantFrom('portal', 'portal', 'portal', 'none', 'https://evil.example'),
      token: fc.oneof(
        { weight: 8, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('ory_st_geraden', 'Bearer x', '') },
      ),
      query: g.query(['service', 'redirect']),
      body: g.body(g.apiFields),
      forwardedHost: fc.constantFrom(...FORWARDED_HOSTS),
      forwardedUri: fc.constantFrom(...FORWARDED_URIS),
      accept: fc.constantFrom('application/json', 'text/html'),
    })
    .map(({ route, id, caller, origin, token, query, body, forwardedHost, forwardedUri, accept }): Generated => {
      const fields = { ...query };
      const pathname = route.path.replace(':id', encodeURIComponent(id));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (origin !== 'none') headers.origin = origin === 'portal' ? portaal.publicUrl : origin;
      if (token !== null) headers['X-Session-Token'] = token;
      const sendsBody = route.method !== 'GET' && route.method !== 'HEAD';
      const { type, payload } = sendsBody ? encodeBody(body) : {};
      if (type) headers['content-type'] = type;
      if (route.path === '/hooks/kratos/login') headers.authorization = `Bearer ${encodeURIComponent(id)}`;
      if (route.path === '/forward-auth') {
        if (forwardedHost !== undefined) headers['x-forwarded-host'] = forwardedHost;
        headers['x-forwarded-uri'] = forwardedUri;
        headers.accept = accept;
      }
      return {
        caller,
        method: route.method,
        url: `${portaal.publicUrl}/api${pathname}${queryString(fields)}`,
        headers,
        body: payload,
        writes: sendsBody || Boolean(route.writes),
        api: true,
      };
    });
  const flowSubmit = fc
    .record({
      kind: fc.constantFrom(...KINDS),
      mode: fc.constantFrom('browser' as const, 'api' as const),
      pick: fc.nat(),
      flowId: fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: g.text },
      ),
      csrf: fc.constantFrom('own', 'own', 'own', 'none', 'forged'),
      // GET submits are the mailed links' way in (verification, recovery); most submits are POSTs.
      method: fc.oneof({ weight: 9, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constant('GET') }),
      body: g.body(g.flowFields),
      query: g.query(['code', 'token', 'return_to']),
    })
    .map(({ kind, mode, pick, flowId, csrf, method, body, query }): Generated => {
      const pool = flowPool[`${kind}:${mode}`]!;
      const flow = pool[pick % pool.length]!;
      const token = csrf === 'own' ? flow.csrf : csrf === 'forged' ? 'dGhpcyBpcyBub3QgdGhlIHRva2Vu' : undefined;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (mode === 'api' && kind === 'settings') headers['X-Session-Token'] = settingsToken;
      const fields: Record<string, string> = { ...query, flow: flowId ?? flow.id };
      let payload: string | undefined;
      if (method === 'POST') {
        const encoded = encodeBody(body as GeneratedBody, token);
        if (encoded.type) headers['content-type'] = encoded.type;
        payload = encoded.payload;
      } else if (body.kind === 'json' && body.value && typeof body.value === 'object') {
        for (const [key, v] of Object.entries(body.value)) fields[key] = typeof v === 'string' ? v : JSON.stringify(v);
      }
      const caller: CallerName = mode === 'api' ? 'anonymous' : kind === 'settings' ? 'settings' : 'anonymous';
      return {
        caller,
        method,
        url: `${portaal.publicUrl}/self-service/${kind}${queryString(fields)}`,
        headers,
        body: payload,
        writes: true,
        api: false,
      };
    });
  return fc.oneof(apiCall, flowSubmit);
}

/** The tables once two readings 100 ms apart agree (at most 5 s): writes made after an answer have landed. */
async function settled(first: Tables): Promise<Tables> {
  let last = first;
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await readTables();
    if (differences(last, next).length === 0) return next;
    last = next;
  }
  return last;
}

/** What differs between two readings: rows gone and rows new, per table. */
function differences(before: Tables, after: Tables): string[] {
  return COMPARED.flatMap(([table], i) => {
    const [was, is] = [new Set(before[i]), new Set(after[i])];
    return [
      ...[...was].filter((row) => !is.has(row)).map((row) => `${table} - ${row.slice(0, 300)}`),
      ...[...is].filter((row) => !was.has(row)).map((row) => `${table} + ${row.slice(0, 300)}`),
    ];
  });
}

/** A refusal carries the error envelope (Kratos' or the Users API's: both have code, status and message). */
function checkAnswer(request: Generated, status: number, text: string): string | undefined {
  const what = `${request.method} ${request.url.slice(0, 300)} as ${request.caller} -> ${status} ${text.slice(0, 300)}`;
  if (status >= 500) return `5xx: ${what}`;
  if (status < 400 || request.method === 'HEAD' || text === '') return undefined;
  let body: {
    error?: { code?: unknown; status?: unknown; message?: unknown } | string;
    id?: unknown;
    ui?: { nodes?: unknown };
  };
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${what}`;
  }
  if (typeof body.error === 'string') return `bad envelope: ${what}`;
  if (body.error) {
    const { code, status: name, message } = body.error;
    if (code !== status || typeof name !== 'string' || typeof message !== 'string') return `bad envelope: ${what}`;
    return undefined;
  }
  // A flow shown again with its messages.
  if (!request.api && status === 400 && typeof body.id === 'string' && Array.isArray(body.ui?.nodes)) return undefined;
  return `unexpected refusal body: ${what}`;
}

describe('fuzzing every Users API call and every flow submit', () => {
  it('answers at least 10,000 generated requests without a 5xx, and refusals change no row', async () => {
    let sent = 0;
    let compared = 0;
    let refused = 0;
    let before = await readTables();
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(requests(), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answers = await Promise.all(
          batch.map(async (request) => {
            const send = request.caller === 'anonymous' ? fetch : browsers[request.caller].fetch;
            const response = await send(request.url, {
              method: request.method,
              headers: request.headers,
              body: request.body,
              redirect: 'manual',
            });
            return { request, status: response.status, text: await response.text() };
          }),
        );
        sent += answers.length;
        const problems = answers.map((a) => checkAnswer(a.request, a.status, a.text)).filter(Boolean);
        expect(problems).toEqual([]);
        refused += answers.filter((a) => a.status >= 400).length;
        const after = await readTables();
        const mayHaveChanged = answers.some((a) => a.status < 400 && a.request.writes);
        if (!mayHaveChanged) {
          compared++;
          const changes = differences(before, after);
          if (changes.length > 0) {
            const list = answers.map((a) => `${a.request.method} ${a.request.url.slice(0, 200)} -> ${a.status}`);
            expect.fail(`a batch of refusals and reads changed rows:\n${changes.join('\n')}\n${list.join('\n')}`);
          }
          return;
        }
        // Callers may have been signed out or blocked by an accepted request; sign them in again.
        await Promise.all((['admin', 'member', 'aal1'] as const).map(revive));
        before = await readTables();
        // The Users API queues a recovery mail after answering (so that the time tells nothing): wait for it.
        if (answers.some((a) => a.status < 400 && a.request.url.includes('/api/users/password-recovery')))
          before = await settled(before);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `fuzz: ${sent} requests in ${seconds.toFixed(1)} s, ${refused} refused; ` +
        `${compared} of ${RUNS} batches had no accepted write and were compared`,
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    // Most batches are refusals and reads only, so the row check covers most requests.
    expect(compared).toBeGreaterThan(RUNS / 2);
  }, 180_000);
});
