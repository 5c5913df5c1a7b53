import type { DbExecutor } from '../identities/identity-repository.js';
import { needsSealing, openConfig, sealConfig } from './credential-cipher.js';

/**
 * Seals under the first key of `SECRETS_CIPHER` every credential secret still in clear (rows from before sealing) or
 * sealed under an older key (after a rotation). Run at every start; each row is written only when its config is still
 * the one read, so a backup code spent meanwhile is never undone. Answers how many rows were sealed anew.
 */
export async function resealCredentials(db: DbExecutor): Promise<number> {
  const rows = await db
    .selectFrom('identity_credentials')
    .select(['id', 'type', 'config'])
    .where('type', 'in', ['totp', 'lookup_secret'])
    .execute();
  let resealed = 0;
  for (const row of rows) {
    const stored = JSON.parse(row.config) as Record<string, unknown>;
    if (!needsSealing(row.type, stored)) continue;
    const sealed = JSON.stringify(sealConfig(row.type, openConfig(row.type, stored)));
    const result = await db
      .updateTable('identity_credentials')
      .set({ config: sealed })
      .where('id', '=', row.id)
      .where('config', '=', row.config)
      .executeTakeFirst();
    resealed += Number(result.numUpdatedRows);
  }
  return resealed;
}
