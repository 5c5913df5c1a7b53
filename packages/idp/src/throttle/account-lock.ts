import type { DbExecutor, IdentityRecord } from '../identities/identity-repository.js';
import type { IdpServices } from '../services.js';
import { identifierKey } from './failure-throttle.js';

// The keys the sign-in counts failures under: the password step by address, the second step by identity.
const keysOf = (identity: IdentityRecord) => [
  identifierKey('login', identity.traits.email),
  identifierKey('second_factor', identity.id),
];

/** Lifts the lock and forgets the failures counted so far (an administrator's 'Ontgrendelen'). */
export async function unlockAccount(services: IdpServices, identity: IdentityRecord): Promise<void> {
  for (const key of keysOf(identity)) await services.throttle.reset(key);
}

/** The locks of many accounts in one query (the administrators' overview), by identity id. */
export async function accountLocks(
  services: IdpServices,
  db: DbExecutor,
  identities: { id: string; email: string }[],
): Promise<Map<string, string>> {
  const owner = new Map<string, string>();
  for (const { id, email } of identities) {
    owner.set(identifierKey('login', email), id);
    owner.set(identifierKey('second_factor', id), id);
  }
  const locks = new Map<string, string>();
  if (owner.size === 0) return locks;
  const rows = await db
    .selectFrom('throttles')
    .select(['key', 'locked_until'])
    .where('key', 'in', [...owner.keys()])
    .where('locked_until', '>', services.ctx.clock.now().toISOString())
    .execute();
  for (const row of rows) {
    const id = owner.get(row.key)!;
    const until = row.locked_until!;
    if (until > (locks.get(id) ?? '')) locks.set(id, until);
  }
  return locks;
}
