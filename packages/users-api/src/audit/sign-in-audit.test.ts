import type { Db } from '@portaal/idp';
import { createRelationStore } from '@portaal/relations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { type AuditLog, createAuditLog } from './audit-log.js';
import { createLastSignIns, type LastSignIns } from './last-sign-ins.js';
import { organisationsInDatabase, organisationsInTuples, signInAuditor } from './sign-in-audit.js';

// The audit of security keys and passkeys added or removed in the settings, and the last sign-in, on a real
// (in-memory SQLite) audit log and tuple store: the identity provider reports them through the listener it reports
// sign-ins through.

let db: Db;
let audit: AuditLog;
let lastSignIns: LastSignIns;

beforeEach(async () => {
  db = await migratedDatabase();
  audit = createAuditLog(db.kysely);
  lastSignIns = createLastSignIns(db.kysely);
});

afterEach(async () => {
  await db.close();
});

describe('the organisations of a person', () => {
  it.each([
    ['in the database', () => organisationsInDatabase(db.kysely)],
    ['through the tuple store', () => organisationsInTuples(createRelationStore(db.kysely))],
  ])('are those of issuer and access tuples, each once, %s', async (_, organisationsOf) => {
    await createRelationStore(db.kysely).patch({
      insert: [
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: 'p0' },
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'access', subject_id: 'p0' },
        { namespace: 'organizations', object: 'dego', relation: 'access', subject_id: 'p0' },
        { namespace: 'organizations', object: 'elders', relation: 'admin', subject_id: 'p0' },
        { namespace: 'subdivisions', object: 'voorbeeldstad.wijkdata', relation: 'access', subject_id: 'p0' },
        { namespace: 'organizations', object: 'anders', relation: 'access', subject_id: 'p9' },
      ],
    });
    expect((await organisationsOf()('p0')).sort()).toEqual(['dego', 'voorbeeldstad']);
    expect(await organisationsOf()('nobody')).toEqual([]);
  });
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
    const record = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
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

  it('records a password, an app and backup codes added, removed or changed, by their own actions', async () => {
    const relations = createRelationStore(db.kysely);
    await relations.patch({
      insert: [{ namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: 'p2' }],
    });
    const record = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
    const at = { identityId: 'p2', clientAddress: '192.0.2.8' };
    await record({ type: 'credential.added', method: 'password', ...at });
    await record({ type: 'credential.changed', method: 'password', ...at });
    await record({ type: 'credential.added', method: 'totp', ...at });
    await record({ type: 'credential.removed', method: 'totp', ...at });
    await record({ type: 'credential.added', method: 'lookup_secret', ...at });
    await record({ type: 'credential.removed', method: 'lookup_secret', ...at });
    const entries = await audit.about('p2');
    expect(entries.map((e) => e.action).sort()).toEqual([
      'lookup_secret.add',
      'lookup_secret.remove',
      'password.add',
      'password.change',
      'totp.add',
      'totp.remove',
    ]);
    for (const entry of entries)
      expect(entry).toMatchObject({
        organisationId: 'voorbeeldstad',
        actorId: 'p2',
        objectId: 'p2',
        result: 'success',
      });
    // Not a sign-in: the person's last sign-in stays unknown.
    expect(await lastSignIns.of(['p2'])).toEqual(new Map());
  });

  it('still records sign-ins as before', async () => {
    const record = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
    await record({ type: 'login.success', method: 'passkey', identityId: 'p2', clientAddress: '192.0.2.8' });
    expect(await audit.about('p2')).toMatchObject([
      { action: 'sign_in.passkey', result: 'success', organisationId: null },
    ]);
    expect((await audit.about('p2'))[0]?.details ?? null).toBeNull();
  });

  it('notes a key whose counter did not rise, while the sign-in itself passed', async () => {
    const record = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
    const event = { type: 'login.success', method: 'webauthn', identityId: 'p3', clientAddress: null } as const;
    await record({ ...event, cloneWarning: true });
    expect(await audit.about('p3')).toMatchObject([
      { action: 'sign_in.webauthn', result: 'success', details: { clone_warning: true } },
    ]);
  });
});

describe('the last sign-in', () => {
  it('is each passed step, replacing the one before; failures, locks and keys leave it alone', async () => {
    const record = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
    const failed = { method: 'password', identityId: 'p4', clientAddress: null } as const;
    await record({ type: 'login.failure', ...failed });
    await record({ type: 'login.locked', ...failed });
    await record({ type: 'credential.added', method: 'passkey', identityId: 'p4', clientAddress: null });
    expect(await lastSignIns.of(['p4'])).toEqual(new Map());

    const before = Date.now();
    await record({ type: 'login.success', method: 'password', identityId: 'p4', clientAddress: null });
    const first = (await lastSignIns.of(['p4'])).get('p4')!;
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await record({ type: 'login.success', method: 'totp', identityId: 'p4', clientAddress: null });
    const second = (await lastSignIns.of(['p4', 'nobody'])).get('p4')!;
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    expect([...(await lastSignIns.of(['p4', 'nobody'])).keys()]).toEqual(['p4']);
  });

  it('is read for many people at once, and forgotten with the person', async () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `person-${i}`);
    for (const id of ids.filter((_, i) => i % 2 === 0)) await lastSignIns.record(id, new Date('2026-11-20T08:00:00Z'));
    const found = await lastSignIns.of(ids);
    expect(found.size).toBe(1250);
    expect(found.get('person-2498')).toBe('2026-11-20T08:00:00.000Z');
    await lastSignIns.forget('person-2498');
    expect((await lastSignIns.of(['person-2498'])).size).toBe(0);
  });
});
