import type { KeyInfo } from '../ports.js';

/** One entry of Kratos' stored `webauthn` or `passkey` credential config (`config.credentials[]`). */
interface StoredKey {
  id?: unknown;
  display_name?: unknown;
  added_at?: unknown;
  flags?: { backup_state?: unknown } | null;
}

const KINDS: Record<string, KeyInfo['kind']> = { webauthn: 'security_key', passkey: 'passkey' };

/**
 * The keys in a credential's config as Kratos stores it: ids in standard base64 (the settings flow shows them in hex),
 * the name, when it was added and the backup state. Entries without an id are left out.
 */
export function keysInConfig(type: string, config: unknown): KeyInfo[] {
  const kind = KINDS[type];
  const stored = (config as { credentials?: unknown } | null)?.credentials;
  if (!kind || !Array.isArray(stored)) return [];
  return (stored as StoredKey[]).flatMap((key) => {
    if (typeof key?.id !== 'string' || key.id.length === 0) return [];
    const addedAt = typeof key.added_at === 'string' && !key.added_at.startsWith('0001-') ? key.added_at : undefined;
    const synced = typeof key.flags?.backup_state === 'boolean' ? key.flags.backup_state : undefined;
    return [
      {
        kind,
        id: Buffer.from(key.id, 'base64').toString('hex'),
        name: typeof key.display_name === 'string' ? key.display_name : '',
        ...(addedAt ? { addedAt } : {}),
        ...(synced === undefined ? {} : { synced }),
      },
    ];
  });
}
