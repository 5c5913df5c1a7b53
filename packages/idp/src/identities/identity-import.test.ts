import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_TABLES, inProcessProvider, type InProcessProvider, storedRows } from '../test-provider.js';
import { createIdentityWithPassword } from './create-identity.js';
import { type ImportedIdentity, importIdentity } from './identity-import.js';

// An identity moved in from Kratos (`portaal import kratos`) is written whole or not at all: one whose address or
// identifier is another identity's, or whose id is there already, leaves every stored row as it was.

let inProcess: InProcessProvider;
const AT = '2025-03-03T16:45:00.000Z';

const imported = (id: string, email: string): ImportedIdentity => ({
  id,
  schemaId: 'default',
  state: 'active',
  stateChangedAt: null,
  traits: { email, name: { first: 'Daan', last: 'Visser' } },
  metadataPublic: null,
  metadataAdmin: null,
  externalId: null,
  createdAt: AT,
  updatedAt: AT,
  verifiableAddresses: [
    { value: email, via: 'email', verified: false, status: 'pending', verifiedAt: null, createdAt: AT },
  ],
  recoveryAddresses: [{ value: email, via: 'email', createdAt: AT }],
  credentials: [
    {
      type: 'password',
      config: { hashed_password: '$2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW' },
      version: 0,
      createdAt: AT,
      updatedAt: AT,
      identifiers: [email],
    },
  ],
});

beforeEach(async () => {
  inProcess = await inProcessProvider();
});
afterEach(() => inProcess.close());

const stored = () => storedRows(inProcess.db, IDENTITY_TABLES);
const inTransaction = (identity: ImportedIdentity) =>
  inProcess.db.kysely.transaction().execute((trx) => importIdentity(trx, identity));

describe('importIdentity', () => {
  it('refuses an address another identity has, and an id that is there, writing nothing', async () => {
    const existing = await createIdentityWithPassword(inProcess.provider.services, { email: 'daan@dego.nl' });
    const before = await stored();
    expect(await inTransaction(imported(crypto.randomUUID(), 'daan@dego.nl'))).toBe('conflict');
    expect(await inTransaction(imported(existing, 'ander@dego.nl'))).toBe('exists');
    expect(await stored()).toEqual(before);
  });

  it('writes one that is new with its id, times, addresses and credentials', async () => {
    const id = crypto.randomUUID();
    expect(await inTransaction(imported(id, 'nieuw@dego.nl'))).toBe('created');
    const rows = await stored();
    expect(rows.identities).toEqual([expect.stringContaining(`"id":"${id}"`)]);
    expect(rows.identities![0]).toContain(`"created_at":"${AT}"`);
    expect(rows.identity_credential_identifiers).toEqual([expect.stringContaining('"identifier":"nieuw@dego.nl"')]);
  });
});
