import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolLookupSecrets, loginSecondFactor, loginWithPassword } from '../support/flows.js';
import { csrfTokenOf, explained, newBrowser, nodeNamed } from '../support/ory.js';
import { type Portaal, startPortaal } from '../support/portaal.js';
import {
  DEMO_PASSWORD,
  getJson,
  portaalCommand,
  relationTuples,
  signInAtAal1,
  signInAtAal2,
} from '../support/portal-users.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';

// Issue 32, moving to Ory Kratos: `portaal export kratos` writes everyone as Kratos v26's identity import takes them
// and the tuples in Keto's format; `portaal import kratos-export` puts that into the admin APIs of a Kratos-compatible
// server and a Keto (here a second, empty portal). Every person, credential and tuple comes out the same, compared
// field by field, and every person signs in there with what they had.

let from: Portaal;
let to: Portaal;
let dir: string;
const ADMIN = 'beheerder@voorbeeldstad.nl';
const ANALIST = 'analist@dego.nl';
const TYPES = ['password', 'totp', 'lookup_secret', 'webauthn', 'passkey'];

/** An identity as its admin API shows it, without what a move may change (ids, times), credentials' configs in. */
async function shown(portaal: Portaal, email: string) {
  const url = new URL('/admin/identities', portaal.adminUrl);
  url.searchParams.set('credentials_identifier', email);
  const [listed] = await getJson(url.toString());
  const query = TYPES.map((type) => `include_credential=${type}`).join('&');
  const identity = await getJson(`${portaal.adminUrl}/admin/identities/${listed.id}?${query}`);
  return {
    id: identity.id as string,
    fields: {
      traits: identity.traits,
      state: identity.state,
      metadata_public: identity.metadata_public,
      metadata_admin: identity.metadata_admin,
      addresses: (identity.verifiable_addresses ?? []).map((a: any) => [a.value, a.via, a.verified, a.status]),
      recovery: (identity.recovery_addresses ?? []).map((a: any) => [a.value, a.via]),
      credentials: Object.fromEntries(
        Object.entries(identity.credentials ?? {}).map(([type, c]: [string, any]) => [type, c.config]),
      ),
    },
  };
}

const tuplesOf = async (portaal: Portaal, id: string) =>
  (await relationTuples(portaal, { subject_id: id })).map((t) => `${t.namespace}:${t.object}#${t.relation}`).sort();

describe('moving to Ory Kratos: export and import', () => {
  let secret: string;
  let codes: string[];
  let emails: string[];
  let passkeys: SoftwareAuthenticator;

  beforeAll(async () => {
    [from, to] = await Promise.all([startPortaal({ args: ['--demo'] }), startPortaal()]);
    const admin = await signInAtAal2(from, ADMIN, DEMO_PASSWORD);
    secret = admin.secret;
    codes = await enrolLookupSecrets(admin.browser);
    // The analyst adds a passkey in settings.
    passkeys = new SoftwareAuthenticator(from.publicUrl);
    const analist = await signInAtAal1(from, ANALIST, DEMO_PASSWORD);
    const flow = await explained(analist.browser.frontend.createBrowserSettingsFlow({}));
    const added = await analist.browser.fetch(`${from.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        csrf_token: csrfTokenOf(flow),
        method: 'passkey',
        passkey_settings_register: passkeys.create(nodeNamed(flow, 'passkey_create_data').attributes.value),
      }),
    });
    expect(added.status).toBe(200);
    dir = mkdtempSync(path.join(os.tmpdir(), 'portaal-export-'));
  });

  afterAll(async () => {
    await Promise.all([from?.stop(), to?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes everyone and every tuple as Kratos and Keto take them', async () => {
    const exported = await portaalCommand(from, ['export', 'kratos', '--out', dir], 'portal');
    expect(exported.status, exported.stderr).toBe(0);
    const lines = readFileSync(path.join(dir, 'identities.jsonl'), 'utf8').trim().split('\n');
    emails = lines.map((line) => JSON.parse(line).identity.traits.email);
    expect(exported.stdout).toContain(`${lines.length} accounts en`);
    const admin = JSON.parse(lines.find((line) => line.includes(ADMIN))!).identity;
    expect(Object.keys(admin.credentials).sort()).toEqual(['lookup_secret', 'password', 'totp']);
    expect(admin.credentials.totp.config.totp_url).toContain(`secret=${secret}`);
    expect(admin.credentials.lookup_secret.config.codes.map((c: { code: string }) => c.code)).toEqual(codes);
    expect(admin.credentials.password.config.hashed_password).toMatch(/^\$argon2id\$/);
    const analist = JSON.parse(lines.find((line) => line.includes(ANALIST))!).identity;
    expect(Object.keys(analist.credentials).sort()).toEqual(['passkey', 'password']);
  });

  it('puts it into another server: the same people, credentials and tuples, and everyone signs in', async () => {
    const imported = await portaalCommand(
      to,
      ['import', 'kratos-export', dir, '--admin-url', to.adminUrl, '--keto-url', to.adminUrl],
      'portal',
    );
    expect(imported.status, `${imported.stdout}${imported.stderr}`).toBe(0);
    expect(imported.stdout).toContain(`${emails.length} accounts aangemaakt, 0 bestonden al, 0 geweigerd.`);
    for (const email of emails) {
      const [before, after] = await Promise.all([shown(from, email), shown(to, email)]);
      expect(after.fields, email).toEqual(before.fields);
      expect(await tuplesOf(to, after.id), email).toEqual(await tuplesOf(from, before.id));
      const browser = newBrowser(to.publicUrl);
      const signedIn = await loginWithPassword(browser, email, DEMO_PASSWORD);
      if (email !== ADMIN) expect(signedIn.session, email).toBeDefined();
    }
    const browser = newBrowser(to.publicUrl);
    await loginWithPassword(browser, ADMIN, DEMO_PASSWORD);
    expect((await loginSecondFactor(browser, secret)).session.authenticator_assurance_level).toBe('aal2');
    // The analyst's passkey, on the same host name, signs her in there.
    const there = new SoftwareAuthenticator(to.publicUrl);
    there.keys.push(...passkeys.keys);
    const withPasskey = newBrowser(to.publicUrl);
    const flow = await explained(withPasskey.frontend.createBrowserLoginFlow({}));
    const signedIn = await explained(
      withPasskey.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: 'passkey',
          passkey_login: there.get(nodeNamed(flow, 'passkey_challenge').attributes.value),
          csrf_token: csrfTokenOf(flow),
        } as never,
      }),
    );
    expect(signedIn.session.identity?.traits.email).toBe(ANALIST);

    // Again: everyone is there already, nothing is created twice.
    const again = await portaalCommand(
      to,
      ['import', 'kratos-export', dir, '--admin-url', to.adminUrl, '--keto-url', to.adminUrl],
      'portal',
    );
    expect(again.stdout).toContain(`0 accounts aangemaakt, ${emails.length} bestonden al, 0 geweigerd.`);
  });
});
