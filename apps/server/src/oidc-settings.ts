import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { hashClientSecret } from '@portaal/users-api';

type Env = Record<string, string | undefined>;
type Jwk = Record<string, unknown> & { kty: string; kid?: string };

/** A setting of the OpenID Connect provider that cannot be used: one Dutch line, like ConfigError. */
export class OidcSettingError extends Error {}

/** What the server needs beyond the catalogue to run the OpenID Connect provider. */
export interface OidcSettings {
  /** `OIDC_JWKS`, when the keys are given rather than generated into `DATA_DIR`. */
  jwks: { keys: Jwk[] } | undefined;
  /** A client id's secret hash, from `OIDC_CLIENT_SECRET_<ID>` or `OIDC_CLIENT_SECRETS_FILE`. */
  clientSecrets: (clientId: string) => string | undefined;
}

const KEYS_FILE = 'oidc-jwks.json';
/** The newest key signs; the one before it stays published, so tokens it signed still verify after a rotation. */
const KEPT_KEYS = 2;

/** `OIDC_CLIENT_SECRET_<ID>`: the client id in capitals, every character but letters and digits as `_`. */
const secretVariableOf = (clientId: string) =>
  `OIDC_CLIENT_SECRET_${clientId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/** A secret as given: at least 32 characters, or its hash already (`sha256:` and 64 hexadecimal digits). */
function secretHash(where: string, value: string): string {
  const hashed = /^sha256:([0-9a-f]{64})$/i.exec(value);
  if (hashed) return hashed[1]!.toLowerCase();
  if (value.length < 32) throw new OidcSettingError(`${where}: een clientgeheim moet minstens 32 tekens lang zijn.`);
  return hashClientSecret(value);
}

function privateKeys(where: string, raw: string): { keys: Jwk[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new OidcSettingError(`${where} is geen geldige JSON.`);
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((k) => k && typeof k === 'object' && typeof k.kty === 'string' && typeof k.d === 'string')
  ) {
    throw new OidcSettingError(`${where} moet een JWKS zijn ({"keys": [...]}) met alleen privésleutels.`);
  }
  return { keys: keys as Jwk[] };
}

export function readOidcSettings(env: Env): OidcSettings {
  const jwksText = env.OIDC_JWKS?.trim();
  const fromFile = new Map<string, string>();
  const file = env.OIDC_CLIENT_SECRETS_FILE?.trim();
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      throw new OidcSettingError(`OIDC_CLIENT_SECRETS_FILE: kan '${file}' niet lezen als JSON.`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new OidcSettingError('OIDC_CLIENT_SECRETS_FILE moet een JSON-object zijn: {"client-id": "geheim"}.');
    }
    for (const [clientId, secret] of Object.entries(parsed)) {
      if (typeof secret !== 'string')
        throw new OidcSettingError(`OIDC_CLIENT_SECRETS_FILE: '${clientId}' is geen tekst.`);
      fromFile.set(clientId, secretHash(`OIDC_CLIENT_SECRETS_FILE ('${clientId}')`, secret));
    }
  }
  const fromEnv = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('OIDC_CLIENT_SECRET_') && value?.trim()) fromEnv.set(name, secretHash(name, value.trim()));
  }
  return {
    jwks: jwksText ? privateKeys('OIDC_JWKS', jwksText) : undefined,
    clientSecrets: (clientId) => fromEnv.get(secretVariableOf(clientId)) ?? fromFile.get(clientId),
  };
}

/**
 * Asynchronous on purpose: on Node 20 `generateKeyPairSync('rsa')` can hang for ever, when a garbage collection
 * destroys its key job while the job holds its own lock (docs/architecture.md, "Single sign-on for the data services").
 */
const generateKeyPair = promisify(crypto.generateKeyPair);

async function newSigningKey(): Promise<Jwk> {
  const { privateKey } = await generateKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Jwk;
  return { ...jwk, kid: crypto.randomBytes(12).toString('base64url'), alg: 'RS256', use: 'sig' };
}

/**
 * `portaal oidc new-jwks`: a JWKS with one new private key, for `OIDC_JWKS`. Every replica of one deployment must get
 * the same (the deploy files take it from one Secret), or a token signed by one fails at a service that fetched the
 * other's keys.
 */
export const newJwks = async (): Promise<string> => JSON.stringify({ keys: [await newSigningKey()] });

/**
 * The signing keys: `OIDC_JWKS`, or `DATA_DIR/oidc-jwks.json`, generated on first start. Processes that start
 * together on one data directory agree: the file is created exclusively and whoever loses reads the winner's.
 */
export async function oidcSigningKeys(settings: OidcSettings, dataDir: string): Promise<{ keys: Jwk[] }> {
  if (settings.jwks) return settings.jwks;
  const file = path.join(dataDir, KEYS_FILE);
  if (fs.existsSync(file)) return privateKeys(file, fs.readFileSync(file, 'utf8'));
  const generated = JSON.stringify({ keys: [await newSigningKey()] });
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return privateKeys(file, fs.readFileSync(file, 'utf8'));
}

/** The ids by which the processes compare their keys: each key's `kid`, or a hash of its public key without one. */
export const signingKeyIds = (jwks: { keys: Jwk[] }): string[] =>
  jwks.keys.map(
    (key) =>
      key.kid ??
      crypto
        .createHash('sha256')
        .update(crypto.createPublicKey({ key, format: 'jwk' }).export({ format: 'der', type: 'spki' }))
        .digest('base64url'),
  );

/**
 * `portaal oidc rotate-keys`: a new key signs from the next start on; the previous one stays published so that
 * tokens it signed keep verifying, and any older one is dropped. Answers the new key's id.
 */
export async function rotateSigningKeys(dataDir: string): Promise<string> {
  const file = path.join(dataDir, KEYS_FILE);
  const fresh = await newSigningKey();
  const current = fs.existsSync(file) ? privateKeys(file, fs.readFileSync(file, 'utf8')).keys : [];
  const keys = [fresh, ...current].slice(0, KEPT_KEYS);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(temporary, JSON.stringify({ keys }), { mode: 0o600 });
  fs.renameSync(temporary, file);
  return String(fresh.kid);
}
