import { pbkdf2Sync, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWithPassword } from '../support/flows.js';
import { totpCode } from '../support/identities.js';
import {
  createKetoSchema,
  createKratosSchema,
  insertKetoTuple,
  insertKratosPerson,
  type KratosFixturePerson,
  kratosFixturePeople,
  newDatabase,
} from '../support/kratos-database.js';
import { csrfTokenOf, explained, newBrowser, nodeNamed } from '../support/ory.js';
import { type Portaal, startPortaal } from '../support/portaal.js';
import { getJson, portaalCommand, relationTuples } from '../support/portal-users.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';

// Issue 32: `portaal import kratos` takes over an Ory Kratos and Keto installation. Kratos' and Keto's own tables
// (e2e/support/kratos-database.ts, written from their published migrations) are filled with people whose passwords,
// app secrets and backup codes Kratos' algorithms made; after the import each signs in with what they had, a used
// backup code stays used, the blocked person stays blocked, and their organisations and data roles are Keto's. Runs
// on the throwaway PostgreSQL cluster only (TEST_DATABASE=postgres), where Kratos' databases live.

const onPostgres = process.env.TEST_DATABASE === 'postgres';

let portaal: Portaal;
let people: KratosFixturePerson[];
let kratosUrl: string;
let ketoUrl: string;

/** A new database on the throwaway cluster, filled by `fill`. */
const database = (fill: (client: pg.Client) => Promise<void>) =>
  newDatabase(process.env.TEST_POSTGRES_URL!, `ory_${randomBytes(6).toString('hex')}`, fill);

const importKratos = (...extra: string[]) =>
  portaalCommand(
    portaal,
    ['import', 'kratos', '--kratos-database', kratosUrl, '--keto-database', ketoUrl, ...extra],
    'portal',
  );

const personOf = (kind: string) => people.find((p) => p.kind === kind)!;

/** The password, then a code of the app the person linked in Kratos; answers the session's assurance level. */
async function signInWithApp(person: KratosFixturePerson) {
  const browser = newBrowser(portaal.publicUrl);
  const first = await loginWithPassword(browser, person.email, person.password!);
  expect(first.session, 'an app asks for the second step').toBeUndefined();
  const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
  const code = await totpCode(person.totpSecret!);
  const second = await explained(
    browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'totp', totp_code: code, csrf_token: csrfTokenOf(flow) },
    }),
  );
  return second.session.authenticator_assurance_level;
}

/** Someone whose password came into Kratos as a PBKDF2 hash, one of the formats Kratos takes on import. */
function pbkdf2Person(tag: string): KratosFixturePerson {
  const email = `gijs.brug-${tag}@voorbeeldstad.nl`;
  const password = 'Kratos-Pbkdf2-Gijs-Brug-52';
  const salt = randomBytes(16);
  const key = pbkdf2Sync(password, salt, 100_000, 32, 'sha256');
  const raw = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return {
    kind: 'pbkdf2',
    email,
    password,
    person: {
      id: randomUUID(),
      traits: { email, name: { first: 'Gijs', last: 'Brug' } },
      password: { hashedPassword: `$pbkdf2-sha256$i=100000,l=32$${raw(salt)}$${raw(key)}` },
    },
    tuples: [],
  };
}

/** An authenticator holding the key the person had in Kratos. */
function authenticatorOf(person: KratosFixturePerson) {
  const authenticator = new SoftwareAuthenticator(portaal.publicUrl);
  authenticator.keys.push(person.key!);
  return authenticator;
}

/** The second step with a backup code, after the password; answers whether it gave a session. */
async function signInWithBackupCode(person: KratosFixturePerson, code: string): Promise<boolean> {
  const browser = newBrowser(portaal.publicUrl);
  await loginWithPassword(browser, person.email, person.password!);
  const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
  try {
    const done = await browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(flow) },
    });
    return done.session.authenticator_assurance_level === 'aal2';
  } catch {
    return false;
  }
}

describe.runIf(onPostgres)('portaal import kratos', () => {
  beforeAll(async () => {
    portaal = await startPortaal({ args: ['--demo'] });
    const rpId = new URL(portaal.publicUrl).hostname;
    const tag = randomBytes(3).toString('hex');
    people = [...(await kratosFixturePeople({ tag, rpId })), pbkdf2Person(tag)];
    kratosUrl = await database(async (client) => {
      const { nid } = await createKratosSchema(client);
      for (const { person } of people) await insertKratosPerson(client, nid, person);
    });
    ketoUrl = await database(async (client) => {
      const { nid } = await createKetoSchema(client);
      for (const { tuples } of people) for (const tuple of tuples) await insertKetoTuple(client, nid, tuple);
    });
  });

  afterAll(() => portaal?.stop());

  it('says in a dry run what it would do, and writes nothing', async () => {
    const dry = await importKratos('--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `Uit Ory Kratos: ${people.length} accounts gelezen; ${people.length} zouden worden aangemaakt, 0 al in het`,
    );
    expect(dry.stdout).toContain('Proefdraai: er is niets geschreven.');
    expect(await relationTuples(portaal, { subject_id: personOf('bcrypt').person.id })).toEqual([]);
    const anna = personOf('bcrypt');
    const refused = await loginWithPassword(newBrowser(portaal.publicUrl), anna.email, anna.password!).catch(
      (error: Error) => error,
    );
    expect(refused, 'no account yet: her own password does not sign her in').toBeInstanceOf(Error);
  });

  it('moves everyone in: old password and app work, a used backup code stays used, blocked stays so', async () => {
    const done = await importKratos();
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain(
      `Uit Ory Kratos: ${people.length} accounts gelezen; ${people.length} aangemaakt, 0 al in het portaal`,
    );

    for (const kind of ['bcrypt', 'pbkdf2', 'unverified']) {
      const person = personOf(kind);
      const signedIn = await loginWithPassword(newBrowser(portaal.publicUrl), person.email, person.password!);
      expect(signedIn.session, kind).toBeDefined();
    }
    // Ids, times, traits as typed and addresses with their verification stay as Kratos had them.
    const daan = personOf('unverified');
    const moved = await getJson(`${portaal.adminUrl}/admin/identities/${daan.person.id}`);
    expect(moved.created_at).toBe(daan.person.createdAt!.toISOString());
    expect(moved.traits.email).toBe(daan.person.traits.email);
    expect(moved.verifiable_addresses.map((a: { value: string; verified: boolean }) => [a.value, a.verified])).toEqual([
      [daan.email.toLowerCase(), false],
    ]);

    const bram = personOf('argon2id-totp-lookup');
    expect(await signInWithApp(bram)).toBe('aal2');
    expect(await signInWithBackupCode(bram, bram.backupCodes!.used[0]!)).toBe(false);
    expect(await signInWithBackupCode(bram, bram.backupCodes!.unused[0]!)).toBe(true);

    // The security key as the second step after the password; the passkey alone.
    const carla = personOf('webauthn');
    const withKey = newBrowser(portaal.publicUrl);
    await loginWithPassword(withKey, carla.email, carla.password!);
    const keyStep = await explained(withKey.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
    const keyed = await explained(
      withKey.frontend.updateLoginFlow({
        flow: keyStep.id,
        updateLoginFlowBody: {
          method: 'webauthn',
          identifier: carla.email,
          webauthn_login: authenticatorOf(carla).get(nodeNamed(keyStep, 'webauthn_login_trigger').attributes.value),
          csrf_token: csrfTokenOf(keyStep),
        },
      }),
    );
    expect(keyed.session.authenticator_assurance_level).toBe('aal2');
    const fleur = personOf('passkey');
    const withPasskey = newBrowser(portaal.publicUrl);
    const passkeyStep = await explained(withPasskey.frontend.createBrowserLoginFlow({}));
    const passkeyed = await explained(
      withPasskey.frontend.updateLoginFlow({
        flow: passkeyStep.id,
        updateLoginFlowBody: {
          method: 'passkey',
          passkey_login: authenticatorOf(fleur).get(nodeNamed(passkeyStep, 'passkey_challenge').attributes.value),
          csrf_token: csrfTokenOf(passkeyStep),
        } as never,
      }),
    );
    expect(passkeyed.session.identity?.id).toBe(fleur.person.id);

    const eva = personOf('blocked');
    const blocked = await loginWithPassword(newBrowser(portaal.publicUrl), eva.email, eva.password!).catch(
      (error: Error) => error,
    );
    expect(blocked).toBeInstanceOf(Error);

    for (const person of people) {
      const tuples = await relationTuples(portaal, { subject_id: person.person.id });
      const held = tuples.map((t) => `${t.namespace}:${t.object}#${t.relation}`).sort();
      expect(held, person.kind).toEqual(person.tuples.map((t) => `${t.namespace}:${t.object}#${t.relation}`).sort());
    }
  });

  it('changes nothing when run again', async () => {
    const again = await importKratos();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `Uit Ory Kratos: ${people.length} accounts gelezen; 0 aangemaakt, ${people.length} al in het portaal`,
    );
  });

  it('takes over an installation on Kratos v1.0 as well, its tables without the later columns', async () => {
    const older = (
      await kratosFixturePeople({ tag: randomBytes(3).toString('hex'), rpId: new URL(portaal.publicUrl).hostname })
    )
      // Passkeys came with v1.2.
      .filter((p) => p.kind !== 'passkey');
    const kratos = await database(async (client) => {
      const { nid } = await createKratosSchema(client, { version: 'v1.0' });
      for (const { person } of older) await insertKratosPerson(client, nid, person);
    });
    const done = await portaalCommand(portaal, ['import', 'kratos', '--kratos-database', kratos], 'portal');
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Uit Ory Kratos: ${older.length} accounts gelezen; ${older.length} aangemaakt`);
    expect(await signInWithApp(older.find((p) => p.kind === 'argon2id-totp-lookup')!)).toBe('aal2');
  });
});
