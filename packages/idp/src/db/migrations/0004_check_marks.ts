import type { Kysely } from 'kysely';
import { createCheckMarks, dropCheckMarks, type MarkedWrites, markChecksOn, unmarkChecksOn } from '../check-marks.js';

/**
 * The check mark (db/check-marks.ts) and the identity provider's writes that raise it. Not counted: a new session or
 * identity (no answer kept before it can be about it), the idle clock (`sessions.last_seen_at`, which kept answers
 * expire by themselves before it is due: sessions/kept-answers.ts) and a TOTP code's time step
 * (`identity_credentials.last_used_step`, written by every sign-in with the app and read by no check). Flows,
 * errors, mails, one-time codes and throttles feed no check.
 */
const WRITES: readonly MarkedWrites[] = [
  {
    table: 'sessions',
    events: [
      'delete',
      'update of id, token_hash, logout_token_hash, identity_id, active, authentication_methods, authenticated_at, ' +
        'issued_at, expires_at, ip_address, user_agent, created_at, previous_token_hash, previous_token_expires_at',
    ],
  },
  { table: 'identities', events: ['delete', 'update'] },
  {
    table: 'identity_credentials',
    events: ['insert', 'delete', 'update of id, identity_id, type, config, version, revision, created_at, updated_at'],
  },
  { table: 'identity_credential_identifiers', events: ['insert', 'delete', 'update'] },
  { table: 'identity_verifiable_addresses', events: ['insert', 'delete', 'update'] },
  { table: 'identity_recovery_addresses', events: ['insert', 'delete', 'update'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createCheckMarks(db);
  await markChecksOn(db, WRITES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unmarkChecksOn(db, WRITES);
  await dropCheckMarks(db);
}
