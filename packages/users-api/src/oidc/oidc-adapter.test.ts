import type { Db } from '@portaal/idp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogueSource } from '../catalogue/catalogue-source.js';
import { readCatalogue, replaceCatalogue } from '../catalogue/catalogue-repository.js';
import { parseCatalogue } from '../catalogue/catalogue.js';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { oidcStateAdapter } from './oidc-adapter.js';
import { clientMetadata, hashClientSecret, secretMatches } from './oidc-clients.js';

// The OpenID Connect provider's storage on the product's database (in-memory SQLite here; the integration suite runs
// it on PostgreSQL too): what one process writes another finds, expiry and consumption are honoured, and a grant's
// revocation removes everything issued under it.

let db: Db;
let clock = Date.parse('2026-06-01T12:00:00Z');
const now = () => clock;

beforeEach(async () => {
  db = await migratedDatabase();
  clock = Date.parse('2026-06-01T12:00:00Z');
});
afterEach(async () => {
  await db.close();
});

describe('the provider state adapter', () => {
  it('stores, replaces, finds by uid, consumes and expires', async () => {
    const sessions = oidcStateAdapter(db.kysely, now)('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'b' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'b' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'b' });
    expect(await oidcStateAdapter(db.kysely, now)('Grant').find('s1')).toBeUndefined();

    const codes = oidcStateAdapter(db.kysely, now)('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toBe(Math.floor(clock / 1000));

    clock += 61_000;
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('keeps no token or code in clear: rows are keyed by the hash of the id, and the id is left out', async () => {
    const adapter = oidcStateAdapter(db.kysely, now);
    const secrets = ['toegangstoken-geheim', 'verversingstoken-geheim', 'code-geheim'];
    await adapter('AccessToken').upsert(secrets[0]!, { jti: secrets[0], grantId: 'g1', accountId: 'a' }, 60);
    await adapter('RefreshToken').upsert(secrets[1]!, { jti: secrets[1], grantId: 'g1' }, 60);
    await adapter('AuthorizationCode').upsert(secrets[2]!, { jti: secrets[2], grantId: 'g1' }, 60);
    const stored = JSON.stringify(
      await db.kysely
        .selectFrom('oidc_payloads' as never)
        .selectAll()
        .execute(),
    );
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(await adapter('AccessToken').find(secrets[0]!)).toMatchObject({ jti: secrets[0], accountId: 'a' });
    await adapter('AuthorizationCode').consume(secrets[2]!);
    expect((await adapter('AuthorizationCode').find(secrets[2]!))?.consumed).toBeDefined();
    await adapter('AccessToken').destroy(secrets[0]!);
    expect(await adapter('AccessToken').find(secrets[0]!)).toBeUndefined();
  });

  it('tells which session id a code was issued in, for the logout tokens', async () => {
    const issued: string[][] = [];
    const adapter = oidcStateAdapter(db.kysely, now, {
      codeIssued: async (grantId, sid) => void issued.push([grantId, sid]),
    });
    await adapter('AuthorizationCode').upsert('c1', { grantId: 'g1', sid: 's1' }, 60);
    await adapter('AccessToken').upsert('t1', { grantId: 'g1', sid: 's1' }, 60);
    expect(issued).toEqual([['g1', 's1']]);
  });

  it('revokes everything issued under a grant', async () => {
    const adapter = oidcStateAdapter(db.kysely, now);
    await adapter('AccessToken').upsert('t1', { grantId: 'g1' }, 60);
    await adapter('RefreshToken').upsert('r1', { grantId: 'g1' }, 60);
    await adapter('AccessToken').upsert('t2', { grantId: 'g2' }, 60);
    await adapter('Grant').revokeByGrantId('g1');
    expect(await adapter('AccessToken').find('t1')).toBeUndefined();
    expect(await adapter('RefreshToken').find('r1')).toBeUndefined();
    expect(await adapter('AccessToken').find('t2')).toBeDefined();
  });
});

describe('clients from the catalogue', () => {
  const catalogue = parseCatalogue({
    organisations: [{ id: 'a', label: 'A' }],
    services: [
      {
        id: 'grafana',
        name: 'Grafana',
        url: 'https://grafana.example.nl',
        access: { organisations: ['a'] },
        oidc: {
          clientId: 'grafana',
          redirectUris: ['https://grafana.example.nl/login/generic_oauth'],
          backchannelLogoutUri: 'https://grafana.example.nl/backchannel',
        },
      },
    ],
  });

  it('keeps the registration in the catalogue tables, unchanged', async () => {
    expect(await replaceCatalogue(db.kysely as never, catalogue)).toBe(true);
    expect(await readCatalogue(db.kysely as never)).toEqual(catalogue);
    expect(await replaceCatalogue(db.kysely as never, catalogue)).toBe(false);
    expect((await createCatalogueSource(db.kysely).current()).services[0]?.oidc?.clientId).toBe('grafana');
  });

  it('registers a confidential client only with a secret, and keeps only its hash', () => {
    const service = catalogue.services[0]!;
    expect(clientMetadata(service, () => undefined)).toBeUndefined();
    const secret = 'een-lang-willekeurig-geheim-van-40-tekens!';
    const metadata = clientMetadata(service, () => hashClientSecret(secret))!;
    expect(metadata.client_secret).not.toContain(secret);
    expect(metadata).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', require_auth_time: true });
    expect(secretMatches(String(metadata.client_secret), secret)).toBe(true);
    expect(secretMatches(String(metadata.client_secret), `${secret}x`)).toBe(false);
  });
});
