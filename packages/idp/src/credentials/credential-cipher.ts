import crypto from 'node:crypto';

/**
 * The secrets inside credentials that a copy of the database must not give away: an authenticator app's `totp_url`
 * (its shared secret) and the backup codes (docs/security.md#7-password-storage). They are sealed with AES-256-GCM
 * under the first key of `SECRETS_CIPHER` (as Kratos' `secrets.cipher`: the first encrypts, every one decrypts),
 * each value on its own, so the shape of a config stays readable (how many backup codes are left, when one was used)
 * and the whoami statement can still tell from the database whether a second factor exists.
 *
 * The same seals a settings flow's stored state while it holds a new secret (`sealText`, flows/flow.ts).
 *
 * The keys are the process' one setting, given once at start (`useCredentialKeys`) by the composition root; without
 * any, values are stored as they are (in-process tests).
 */
const PREFIX = 'sealed:v1:';

interface Key {
  id: string;
  secret: Buffer;
}

let keys: Key[] = [];

/** A sealed value whose key is not among the configured ones: the operator must give the key back. */
export class CredentialKeyError extends Error {}

const keyOf = (secret: string): Key => {
  const derived = crypto.createHash('sha256').update(`portaal credential cipher\0${secret}`).digest();
  return { id: crypto.createHash('sha256').update(derived).digest('base64url').slice(0, 8), secret: derived };
};

/** Sets the keys: the first seals, all open. */
export function useCredentialKeys(secrets: readonly string[]): void {
  keys = secrets.map(keyOf);
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

function seal(value: string): string {
  const key = keys[0];
  if (!key || isSealed(value)) return value;
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key.secret, iv);
  const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${PREFIX}${key.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

function open(value: unknown): unknown {
  if (!isSealed(value)) return value;
  const [id, payload] = value.slice(PREFIX.length).split(':');
  const key = keys.find((k) => k.id === id);
  if (!key || !payload) {
    throw new CredentialKeyError(
      `inloggegevens in de database zijn versleuteld met een sleutel die niet in SECRETS_CIPHER staat (${id}). ` +
        'Zet de vorige sleutel achteraan in SECRETS_CIPHER. Was SECRETS_CIPHER niet gezet, dan was de sleutel het ' +
        'vorige SECRETS_COOKIE: zet dat dan in SECRETS_CIPHER.',
    );
  }
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key.secret, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * A whole text sealed, for a settings flow's stored UI and internal context while the person links an app or makes
 * backup codes: they hold the new secret and codes until the flow ends. Text in clear (older rows) opens as it is.
 */
export const sealText = (text: string): string => seal(text);
export const openText = (text: string): string => String(open(text));

type Config = Record<string, unknown>;

/** Applies `change` to the secret values of a config of this credential type, leaving everything else as it is. */
function mapSecrets(type: string, config: Config, change: (value: unknown) => unknown): Config {
  if (type === 'totp' && config.totp_url !== undefined) return { ...config, totp_url: change(config.totp_url) };
  if (type === 'lookup_secret' && Array.isArray(config.recovery_codes)) {
    return {
      ...config,
      recovery_codes: config.recovery_codes.map((code: unknown) =>
        code && typeof code === 'object' && 'code' in code ? { ...code, code: change(code.code) } : code,
      ),
    };
  }
  return config;
}

/** The config as it is stored: its secrets sealed under the first key. */
export const sealConfig = (type: string, config: Config): Config =>
  mapSecrets(type, config, (value) => (typeof value === 'string' ? seal(value) : value));

/** The config as it is used: its secrets opened with whichever key sealed them. */
export const openConfig = (type: string, config: Config): Config => mapSecrets(type, config, open);

/** Whether a stored config has a secret that is in clear or sealed under another key than the first. */
export function needsSealing(type: string, config: Config): boolean {
  let stale = false;
  mapSecrets(type, config, (value) => {
    if (typeof value === 'string' && !value.startsWith(`${PREFIX}${keys[0]?.id}:`)) stale = true;
    return value;
  });
  return keys.length > 0 && stale;
}
