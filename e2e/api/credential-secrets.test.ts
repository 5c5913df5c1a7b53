import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolLookupSecrets, enrolTotp, loginSecondFactor, loginWithPassword } from '../support/flows.js';
import { csrfTokenOf, explained, newBrowser } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { DEMO_PASSWORD } from '../support/portal-users.js';

// docs/security.md#7-password-storage: an authenticator app's secret and the backup codes are sealed in the database
// under the first key of SECRETS_CIPHER; a copy of the database gives neither away, and a rotation seals them anew.
const FIRST = 'eerste-sleutel-voor-geheimen-van-minstens-32-tekens';
const SECOND = 'tweede-sleutel-voor-geheimen-van-minstens-32-tekens';
const EMAIL = 'analist@dego.nl';
let portaal: Portaal;

beforeAll(async () => {
  portaal = await startPortaal({ args: ['--demo'], env: { SECRETS_CIPHER: FIRST } });
});
afterAll(async () => {
  await portaal?.stop();
});

/** The stored configs of the person's authenticator app and backup codes, as the database holds them. */
async function storedConfigs(): Promise<string[]> {
  const query = `select config from identity_credentials where type in ('totp', 'lookup_secret')`;
  const url = portaal.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(query)).rows.map((row) => String(row.config));
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(portaal.dataDir, 'portaal.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(query).all();
    return rows.map((row) => String((row as { config: string }).config));
  } finally {
    db.close();
  }
}

/** Everything on disk of a SQLite database: the file and its write-ahead log. */
const sqliteBytes = () =>
  ['portaal.sqlite', 'portaal.sqlite-wal']
    .map((name) => {
      try {
        return readFileSync(path.join(portaal.dataDir, name)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('');

async function signInWithBackupCode(code: string) {
  const browser = newBrowser(portaal.publicUrl);
  await loginWithPassword(browser, EMAIL, DEMO_PASSWORD);
  const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
  const done = await explained(
    browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(flow) },
    }),
  );
  return done.session.authenticator_assurance_level;
}

describe('the secrets inside credentials', () => {
  it('are kept sealed, open with an older key after a rotation, and are sealed anew under the new one', async () => {
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, EMAIL, DEMO_PASSWORD);
    const secret = await enrolTotp(browser, -1);
    const codes = await enrolLookupSecrets(browser);
    const stored = (await storedConfigs()).join('\n');
    expect(stored).toContain('sealed:v1:');
    for (const value of [secret, ...codes]) expect(stored, 'no secret in clear').not.toContain(value);
    if (!portaal.env.DATABASE_URL) {
      const bytes = sqliteBytes();
      for (const value of [secret, ...codes]) expect(bytes.includes(value), `${value} on disk`).toBe(false);
    }
    const firstKeyIds = new Set(stored.match(/sealed:v1:[^:]+/g));

    // A rotation: the new key first, the old one after; the start seals everything under the new one.
    portaal.env.SECRETS_CIPHER = `${SECOND},${FIRST}`;
    await portaal.terminate();
    await portaal.restart();
    const resealed = (await storedConfigs()).join('\n');
    const secondKeyIds = new Set(resealed.match(/sealed:v1:[^:]+/g));
    expect(
      [...secondKeyIds].some((id) => firstKeyIds.has(id)),
      'nothing left under the old key',
    ).toBe(false);

    // Without the old key at all, both still work: the app's code and a backup code.
    portaal.env.SECRETS_CIPHER = SECOND;
    await portaal.terminate();
    await portaal.restart();
    const again = newBrowser(portaal.publicUrl);
    await loginWithPassword(again, EMAIL, DEMO_PASSWORD);
    expect((await loginSecondFactor(again, secret)).session.authenticator_assurance_level).toBe('aal2');
    expect(await signInWithBackupCode(codes[0]!)).toBe('aal2');
  }, 60_000);

  it('stops a start without the sealing key with one Dutch line that says which key to give back', async () => {
    // The cookie secret rotated while SECRETS_CIPHER was never set: the old cookie secret was the sealing key.
    const previous = portaal.env.SECRETS_CIPHER;
    portaal.env.SECRETS_CIPHER = 'een-nieuwe-sleutel-die-nooit-iets-verzegelde';
    await portaal.terminate();
    const refused = await portaal.restart().then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/Configuratiefout: inloggegevens in de database zijn versleuteld met een sleutel die/);
    expect(refused).toContain('Zet de vorige sleutel achteraan in SECRETS_CIPHER');
    expect(refused).not.toMatch(/\n\s+at /);
    portaal.env.SECRETS_CIPHER = previous!;
    await portaal.restart();
  }, 60_000);
});
