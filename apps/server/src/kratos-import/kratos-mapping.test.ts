import { describe, expect, it } from 'vitest';
import type { Catalogue } from '@portaal/users-api';
import { mapIdentity, mapTuple } from './kratos-mapping.js';
import type { KratosCredential, KratosIdentity } from './kratos-reader.js';

const AT = '2025-01-02T03:04:05.000Z';
const credential = (type: string, config: Record<string, unknown>): KratosCredential => ({
  type,
  config,
  version: 0,
  createdAt: AT,
  updatedAt: AT,
  identifiers: ['anna@voorbeeldstad.nl'],
});
const identity = (credentials: KratosCredential[], traits: Record<string, unknown> = {}): KratosIdentity => ({
  id: '8f0e8a62-5c1e-4c56-9a57-3f1f7f2b7f01',
  schemaId: 'default',
  state: 'active',
  stateChangedAt: null,
  traits: { email: 'Anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'Bakker' }, ...traits },
  metadataPublic: null,
  metadataAdmin: { home_organisation: 'voorbeeldstad' },
  externalId: null,
  createdAt: AT,
  updatedAt: AT,
  credentials,
  verifiableAddresses: [],
  recoveryAddresses: [],
});
const mapped = (source: KratosIdentity) => {
  const result = mapIdentity(source);
  if ('refused' in result) throw new Error(result.refused);
  return result;
};

describe('a Kratos identity in the portal', () => {
  it('keeps a bcrypt or argon2 password, and says why another stays behind', () => {
    const bcrypt = '$2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW';
    expect(mapped(identity([credential('password', { hashed_password: bcrypt })])).identity.credentials).toHaveLength(
      1,
    );
    const argon2 = '$argon2id$v=19$m=131072,t=1,p=4$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA';
    expect(mapped(identity([credential('password', { hashed_password: argon2 })])).identity.credentials).toHaveLength(
      1,
    );
    const pbkdf2 = '$pbkdf2-sha256$i=1000,l=32$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA';
    expect(mapped(identity([credential('password', { hashed_password: pbkdf2 })])).identity.credentials).toHaveLength(
      1,
    );
    const ssha = mapped(identity([credential('password', { hashed_password: '{SSHA}c2FsdGVkaGFzaA==' })]));
    expect(ssha.identity.credentials).toEqual([]);
    expect(ssha.notes).toEqual(['wachtwoord-hash SSHA kent het portaal niet: kies een nieuw via Wachtwoord vergeten']);
    const hook = mapped(identity([credential('password', { use_password_migration_hook: true })]));
    expect(hook.notes).toEqual([
      'wachtwoord staat niet in Kratos (migratiehook): kies een nieuw via Wachtwoord vergeten',
    ]);
  });

  it("marks a used backup code as the portal does, whatever Kratos' release wrote for an unused one", () => {
    const codes = [
      { code: 'aaaa1111', used_at: '2025-05-12T07:41:09Z' },
      { code: 'bbbb2222', used_at: null },
      { code: 'cccc3333', used_at: '0001-01-01T00:00:00Z' },
      { code: 'dddd4444' },
    ];
    const [lookup] = mapped(identity([credential('lookup_secret', { recovery_codes: codes })])).identity.credentials;
    expect(lookup!.config).toEqual({
      recovery_codes: [
        { code: 'aaaa1111', used_at: '2025-05-12T07:41:09Z' },
        { code: 'bbbb2222' },
        { code: 'cccc3333' },
        { code: 'dddd4444' },
      ],
    });
  });

  it('leaves sign-in through another provider behind with a note, and refuses traits the portal does not know', () => {
    const oidc = mapped(identity([credential('oidc', { providers: [] }), credential('code', { addresses: [] })]));
    expect(oidc.identity.credentials).toEqual([]);
    expect(oidc.notes).toEqual(['inloggen via OIDC kan niet mee; met een wachtwoord kan het wel']);
    expect(mapIdentity(identity([], { phone: '0612345678' }))).toMatchObject({
      refused: expect.stringContaining('de gegevens passen niet in het schema van het portaal'),
    });
  });
});

describe('a Keto tuple in the portal', () => {
  const catalogue: Catalogue = {
    organisations: [
      {
        id: 'voorbeeldstad',
        label: 'Voorbeeldstad',
        requiresAal2: true,
        active: true,
        dataRoles: [{ id: 'ruimte', label: 'Ruimte' }],
      },
    ],
    services: [],
  };
  const person = '8f0e8a62-5c1e-4c56-9a57-3f1f7f2b7f01';
  const tuple = (namespace: string, object: string, relation: string, subjectId: string | null = person) => ({
    namespace,
    object,
    relation,
    subjectId,
    subjectSet: subjectId ? null : 'organizations:voorbeeldstad#admin',
  });
  const people = new Set([person]);

  it('moves the relations the portal knows, on organisations and data roles in its catalogue', () => {
    expect(mapTuple(tuple('organizations', 'voorbeeldstad', 'admin'), catalogue, people)).toEqual({
      tuple: { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', subject_id: person },
    });
    expect(mapTuple(tuple('subdivisions', 'ruimte_voorbeeldstad', 'issuer'), catalogue, people)).toHaveProperty(
      'tuple',
    );
    expect(mapTuple(tuple('programme', 'portaal', 'admin'), catalogue, people)).toHaveProperty('tuple');
  });

  it('says why the others stay behind', () => {
    const refused = (t: ReturnType<typeof tuple>, who = people) =>
      (mapTuple(t, catalogue, who) as { refused: string }).refused;
    expect(refused(tuple('organizations', 'nergens', 'issuer'))).toContain('staat niet in de catalogus');
    expect(refused(tuple('documents', 'x', 'viewer'))).toContain('geen relatie van het portaal');
    expect(refused(tuple('organizations', 'voorbeeldstad', 'admin', null))).toContain('subject set');
    expect(refused(tuple('organizations', 'voorbeeldstad', 'issuer'), new Set())).toContain(
      'geen geïmporteerd account',
    );
  });
});
