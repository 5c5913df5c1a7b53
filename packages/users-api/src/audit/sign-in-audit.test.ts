import type { Db } from '@portaal/idp';
import { createRelationStore } from '@portaal/relations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { type AuditLog, createAuditLog } from './audit-log.js';
import { signInAuditor } from './sign-in-audit.js';

// The audit of security keys and passkeys added or removed in the settings, on a real (in-memory SQLite) audit log
// and tuple store: the identity provider reports them through the listener it reports sign-ins through.

let db: Db;
let audit: AuditLog;

beforeEach(async () => {
  db = await migratedDatabase();
  audit = createAuditLog(db.kysely);
});

afterEach(async () => {
  await db.close();
});

describe('security keys and passkeys in the audit log', () => {
  it('records adding and removing, in each organisation of the person, with the name and never the key', async () => {
    const relations = createRelationStore(db.kysely);
    await relations.patch({
      insert: [
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: 'p1' },
        { namespace: 'organizations', object: 'dego', relation: 'access', subject_id: 'p1' },
      ],
    });
    const record = signInAuditor(relations, audit);
    const at = { identityId: 'p1', clientAddress: '192.0.2.7' };
    await record({ type: 'credential.added', method: 'webauthn', displayName: 'YubiKey werk', ...at });
    await record({ type: 'credential.removed', method: 'passkey', ...at });
    const entries = await audit.about('p1');
    const seen = entries.map((e) => [e.organisationId, e.action, e.result, e.details]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['voorbeeldstad', 'security_key.add', 'success', { display_name: 'YubiKey werk' }],
        ['dego', 'security_key.add', 'success', { display_name: 'YubiKey werk' }],
        ['voorbeeldstad', 'passkey.remove', 'success', {}],
        ['dego', 'passkey.remove', 'success', {}],
      ]),
    );
    expect(entries).toHaveLength(4);
    for (const entry of entries)
      expect(entry).toMatchObject({ actorId: 'p1', objectId: 'p1', clientAddress: '192.0.2.7' });
  });

  it('still records sign-ins as before', async () => {
    const record = signInAuditor(createRelationStore(db.kysely), audit);
    await record({ type: 'login.success', method: 'passkey', identityId: 'p2', clientAddress: '192.0.2.8' });
    expect(await audit.about('p2')).toMatchObject([
      { action: 'sign_in.passkey', result: 'success', organisationId: null },
    ]);
    expect((await audit.about('p2'))[0]?.details ?? null).toBeNull();
  });

  it('notes a key whose counter did not rise, while the sign-in itself passed', async () => {
    const record = signInAuditor(createRelationStore(db.kysely), audit);
    const event = { type: 'login.success', method: 'webauthn', identityId: 'p3', clientAddress: null } as const;
    await record({ ...event, cloneWarning: true });
    expect(await audit.about('p3')).toMatchObject([
      { action: 'sign_in.webauthn', result: 'success', details: { clone_warning: true } },
    ]);
  });
});
