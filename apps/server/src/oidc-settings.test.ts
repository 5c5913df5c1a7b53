import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashClientSecret } from '@portaal/users-api';
import { OidcSettingError, oidcSigningKeys, readOidcSettings, rotateSigningKeys } from './oidc-settings.js';

// The OpenID Connect provider's secrets and keys (README, 'Single sign-on'): client secrets only as hashes, long
// enough, and signing keys generated once into DATA_DIR and rotated with the previous key kept.

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oidc-settings-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const SECRET = 'a'.repeat(40);

describe('client secrets', () => {
  it('reads them from OIDC_CLIENT_SECRET_<ID> and from a secrets file, as hashes', () => {
    const file = path.join(tempDir(), 'secrets.json');
    fs.writeFileSync(file, JSON.stringify({ superset: 'b'.repeat(32), 'data.portaal-1': `sha256:${'c'.repeat(64)}` }));
    const settings = readOidcSettings({ OIDC_CLIENT_SECRET_GRAFANA: SECRET, OIDC_CLIENT_SECRETS_FILE: file });
    expect(settings.clientSecrets('grafana')).toBe(hashClientSecret(SECRET));
    expect(settings.clientSecrets('superset')).toBe(hashClientSecret('b'.repeat(32)));
    expect(settings.clientSecrets('data.portaal-1')).toBe('c'.repeat(64));
    expect(settings.clientSecrets('onbekend')).toBeUndefined();
  });

  it('refuses a short secret and a file that is not an object, naming the setting', () => {
    expect(() => readOidcSettings({ OIDC_CLIENT_SECRET_GRAFANA: 'kort' })).toThrow(OidcSettingError);
    expect(() => readOidcSettings({ OIDC_CLIENT_SECRET_GRAFANA: 'kort' })).toThrow(/^OIDC_CLIENT_SECRET_GRAFANA/);
    const file = path.join(tempDir(), 'secrets.json');
    fs.writeFileSync(file, '["geheim"]');
    expect(() => readOidcSettings({ OIDC_CLIENT_SECRETS_FILE: file })).toThrow(/^OIDC_CLIENT_SECRETS_FILE/);
  });
});

describe('signing keys', () => {
  it('generates a key once and rotates to a new one, keeping the previous', async () => {
    const dir = tempDir();
    const settings = readOidcSettings({});
    const first = (await oidcSigningKeys(settings, dir)).keys;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', d: expect.any(String) });
    expect((await oidcSigningKeys(settings, dir)).keys).toEqual(first);
    expect((fs.statSync(path.join(dir, 'oidc-jwks.json')).mode & 0o777).toString(8)).toBe('600');

    const second = await rotateSigningKeys(dir);
    const third = await rotateSigningKeys(dir);
    expect((await oidcSigningKeys(settings, dir)).keys.map((k) => k.kid)).toEqual([third, second]);
  });

  it('takes OIDC_JWKS as given, and refuses one without private keys', async () => {
    const dir = tempDir();
    const keys = await oidcSigningKeys(readOidcSettings({}), dir);
    expect(await oidcSigningKeys(readOidcSettings({ OIDC_JWKS: JSON.stringify(keys) }), tempDir())).toEqual(keys);
    const publicOnly = { keys: keys.keys.map(({ d: _d, ...rest }) => rest) };
    expect(() => readOidcSettings({ OIDC_JWKS: JSON.stringify(publicOnly) })).toThrow(/^OIDC_JWKS/);
  });
});
