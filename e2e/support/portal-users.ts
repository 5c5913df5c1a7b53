import { execFile, spawnSync } from 'node:child_process';
import { PORTAAL_ARGS, type Portaal } from './portaal.js';
import type { Deployment } from './deployment.js';
import { Configuration, RelationshipApi } from '@ory/client';
import { csrfTokenOf, explained, identityApi, newBrowser, type Browser } from './ory.js';
import { enrolTotp, loginSecondFactor, loginWithPassword } from './flows.js';

/**
 * Runs a `portaal` CLI command against the same database as a running test server: by default the identity side,
 * with `side: 'portal'` the side that serves `/api` (its catalogue and audit log).
 */
export function portaalCli(
  portaal: Portaal | Deployment,
  args: string[],
  side: 'identities' | 'portal' = 'identities',
) {
  const env = side === 'portal' && 'portalEnv' in portaal ? portaal.portalEnv : portaal.env;
  // A command that hangs fails the test that ran it, instead of the whole run.
  const result = spawnSync(process.execPath, [...PORTAAL_ARGS, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * As `portaalCli`, without blocking this process while the command runs: the Ory deployment's Keto routes pass
 * through a proxy in this process (support/deployment.ts), which a command that writes tuples must reach.
 */
export function portaalCommand(
  portaal: Portaal | Deployment,
  args: string[],
  side: 'identities' | 'portal' = 'identities',
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = side === 'portal' && 'portalEnv' in portaal ? portaal.portalEnv : portaal.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...PORTAAL_ARGS, ...args],
      { env, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** A person in the portal: their browser, and their TOTP secret once enrolled. */
export interface Person {
  email: string;
  password: string;
  browser: Browser;
  secret?: string;
}

/** Signs in with password and TOTP, enrolling an authenticator first when the account has none. */
export async function signInAtAal2(
  portaal: Portaal,
  email: string,
  password: string,
  secret?: string,
): Promise<Person & { secret: string }> {
  const browser = newBrowser(portaal.publicUrl);
  const first = await loginWithPassword(browser, email, password);
  if (secret) {
    await loginSecondFactor(browser, secret);
    return { email, password, browser, secret };
  }
  if (!first.session) throw new Error(`${email} has a second factor already; pass its secret`);
  // Enrolling raises the session to aal2, as in Kratos.
  return { email, password, browser, secret: await enrolTotp(browser, -1) };
}

/** Signs in with the password only (aal1). */
export async function signInAtAal1(portaal: Portaal, email: string, password: string): Promise<Person> {
  const browser = newBrowser(portaal.publicUrl);
  await loginWithPassword(browser, email, password);
  return { email, password, browser };
}

/**
 * Ten wrong passwords for `email` over the provider's API, as a guesser would try them: enough (`LOGIN_MAX_FAILURES`)
 * to lock the account for `LOGIN_LOCK_DURATION`.
 */
export async function lockWithWrongPasswords(portaal: Portaal, email: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const flow = await (
      await fetch(`${portaal.publicUrl}/self-service/login/api`, { headers: { accept: 'application/json' } })
    ).json();
    await fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ method: 'password', identifier: email, password: `fout-${attempt}-wachtwoord` }),
    });
  }
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the Users API as the portal does: the person's cookies, JSON, and the portal's Origin on writes. */
export async function api<T = any>(
  portaal: Portaal | Deployment,
  who: Browser | undefined,
  method: string,
  path: string,
  body?: unknown,
  options: { origin?: string | null } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const apiUrl = 'apiUrl' in portaal ? portaal.apiUrl : portaal.publicUrl;
  const origin = options.origin === undefined ? apiUrl : options.origin;
  if (origin !== null && method !== 'GET' && method !== 'HEAD') headers.origin = origin;
  const send = who?.fetch ?? fetch;
  const response = await send(`${apiUrl}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export const DEMO_PASSWORD = 'Tulpen-Molen-Gracht-7';

/** Everything the Users API may change, read through the admin listener: identities and tuples. */
export async function databaseSnapshot(portaal: Portaal): Promise<string> {
  const identities = await (
    await fetch(`${portaal.adminUrl}/admin/identities?page_size=500&include_credential=totp`)
  ).json();
  const tuples: unknown[] = [];
  let token = '';
  do {
    const page = (await (
      await fetch(`${portaal.adminUrl}/relation-tuples?page_size=500${token ? `&page_token=${token}` : ''}`)
    ).json()) as {
      relation_tuples: unknown[];
      next_page_token: string;
    };
    tuples.push(...page.relation_tuples);
    token = page.next_page_token;
  } while (token);
  return JSON.stringify({ identities, tuples });
}

/** GET a JSON document (admin listener reads in tests). */
export async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

/**
 * Creates an account with a password, verified, as a member (optionally the administrator) of `org`, the way an
 * operator's tooling would: Kratos' admin API with the organisation as the account's home (`metadata_admin`, as in
 * docs/organisations.md), then the membership tuples through Keto's write API. An account that exists already only
 * gains the tuples, as `portaal user create --org` does (tested itself in e2e/api/cli.test.ts).
 */
export async function createMember(
  portaal: Portaal | Deployment,
  account: { email: string; password: string; org: string; admin?: boolean; first?: string; last?: string },
): Promise<string> {
  const identities = identityApi(portaal.adminUrl);
  let id: string;
  try {
    const { data } = await identities.createIdentity({
      createIdentityBody: {
        schema_id: 'default',
        traits: { email: account.email, name: { first: account.first ?? 'Test', last: account.last ?? 'Persoon' } },
        credentials: { password: { config: { password: account.password } } },
        verifiable_addresses: [{ value: account.email, via: 'email', verified: true, status: 'completed' }],
        metadata_admin: {
          home_organisation: account.org,
          joined_organisations: { [account.org]: new Date().toISOString() },
        },
      },
    });
    id = data.id;
  } catch (error) {
    if ((error as { response?: { status?: number } }).response?.status !== 409) throw error;
    const { data } = await identities.listIdentities({ credentialsIdentifier: account.email.toLowerCase() });
    id = data[0]!.id;
  }
  const relationships = new RelationshipApi(new Configuration({ basePath: portaal.adminUrl }));
  const relations = ['issuer', ...(account.admin ? ['admin'] : [])];
  for (const relation of relations) {
    await relationships.createRelationship({
      createRelationshipBody: { namespace: 'organizations', object: account.org, relation, subject_id: id },
    });
  }
  return id;
}

/** Follows a mailed link that sets a password (invitation or recovery), then enrols an authenticator app (aal2). */
export async function setPasswordThroughLink(
  portaal: Portaal,
  email: string,
  link: string,
  password: string,
): Promise<Person & { secret: string }> {
  const browser = newBrowser(portaal.publicUrl);
  const followed = await browser.fetch(link, { redirect: 'manual' });
  if (followed.status !== 303) throw new Error(`the link answered ${followed.status}, not a redirect to settings`);
  const settingsId = new URL(followed.headers.get('location')!).searchParams.get('flow')!;
  const settings = await explained(browser.frontend.getSettingsFlow({ id: settingsId }));
  await explained(
    browser.frontend.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: { method: 'password', password, csrf_token: csrfTokenOf(settings) },
    }),
  );
  return { email, password, browser, secret: await enrolTotp(browser, -1) };
}

export interface TupleJson {
  namespace: string;
  object: string;
  relation: string;
  subject_id?: string;
}

/** Writes (PUT) or deletes one relation tuple through Keto's write API on the admin listener; throws when refused. */
export async function writeTuple(
  adminUrl: string,
  method: 'PUT' | 'DELETE',
  tuple: Required<TupleJson>,
): Promise<void> {
  const response =
    method === 'PUT'
      ? await fetch(`${adminUrl}/admin/relation-tuples`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(tuple),
        })
      : await fetch(`${adminUrl}/admin/relation-tuples?${new URLSearchParams({ ...tuple })}`, { method });
  if (response.status >= 300) throw new Error(`${method} relation tuple answered ${response.status}`);
}

/** The relation tuples matching a query, read through the admin listener (Keto's read API), every page. */
export async function relationTuples(portaal: Portaal, query: Record<string, string>): Promise<TupleJson[]> {
  const tuples: TupleJson[] = [];
  let token = '';
  do {
    const params = new URLSearchParams({ ...query, page_size: '500', ...(token ? { page_token: token } : {}) });
    const page = (await getJson(`${portaal.adminUrl}/relation-tuples?${params}`)) as {
      relation_tuples: TupleJson[];
      next_page_token: string;
    };
    tuples.push(...page.relation_tuples);
    token = page.next_page_token;
  } while (token);
  return tuples;
}

/** One page (up to 200 entries, newest first) of the audit log of the caller's active organisation. */
export async function auditEntries(portaal: Portaal | Deployment, who: Browser): Promise<any[]> {
  const answer = await api(portaal, who, 'GET', '/audit?page_size=200');
  if (answer.status !== 200)
    throw new Error(`GET /api/audit answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.entries;
}
