import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { OneTimeCodesTable } from '../db/schema.js';
import type { DbExecutor, Transaction } from '../identities/identity-repository.js';
import { randomDigits, randomToken, sha256 } from '../sessions/tokens.js';

export type CodePurpose = OneTimeCodesTable['purpose'];

/** Stores a new code (only its hash) for a flow and returns the clear value to mail; earlier unused codes die. */
export async function issueCode(
  db: Transaction,
  clock: Clock,
  input: { flowId: string; purpose: CodePurpose; identityId: string | null; address: string; lifespanMs: number },
): Promise<{ value: string; expiresAt: Date }> {
  const now = clock.now();
  const value = input.purpose.endsWith('_link') ? randomToken('', 32) : randomDigits(6);
  const expiresAt = new Date(now.getTime() + input.lifespanMs);
  await db
    .updateTable('one_time_codes')
    .set({ used_at: now.toISOString() })
    .where('flow_id', '=', input.flowId)
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('one_time_codes')
    .values({
      id: crypto.randomUUID(),
      flow_id: input.flowId,
      purpose: input.purpose,
      code_hash: sha256(value),
      identity_id: input.identityId,
      address: input.address,
      expires_at: expiresAt.toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { value, expiresAt };
}

/**
 * Spends a code of this flow: valid only if unused and unexpired, and only once even under concurrent submits
 * (the conditional update is the claim; Kratos HackerOne #3692149).
 */
export async function consumeCode(
  db: DbExecutor,
  clock: Clock,
  flowId: string,
  purpose: CodePurpose,
  value: string,
): Promise<{ identityId: string | null; address: string } | undefined> {
  const now = clock.now().toISOString();
  const row = await db
    .selectFrom('one_time_codes')
    .select(['id', 'identity_id', 'address'])
    .where('flow_id', '=', flowId)
    .where('purpose', '=', purpose)
    .where('code_hash', '=', sha256(value.trim()))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const claimed = await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1 ? { identityId: row.identity_id, address: row.address } : undefined;
}
