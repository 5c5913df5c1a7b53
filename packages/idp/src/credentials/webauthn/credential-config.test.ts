import { describe, expect, it } from 'vitest';
import type { CredentialRecord } from '../../identities/identity-repository.js';
import { countFirstFactors, findKey, hexIdOf, keyConfigOf, secondFactorKeys } from './credential-config.js';

const credential = (type: string, config: Record<string, unknown>): CredentialRecord => ({
  id: `${type}-id`,
  identityId: 'identity',
  type,
  config,
  version: 0,
  revision: 0,
  lastUsedStep: null,
  identifiers: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const key = (id: string, passwordless: boolean) => ({
  id: Buffer.from(id).toString('base64'),
  public_key: 'cHVibGlj',
  attestation_type: 'none',
  authenticator: { aaguid: 'AAAAAAAAAAAAAAAAAAAAAA==', sign_count: 3, clone_warning: false },
  display_name: '',
  added_at: '2026-01-01T00:00:00Z',
  is_passwordless: passwordless,
});

describe('WebAuthn credential configs', () => {
  it('reads keys in Kratos’ shape and skips what is not a key', () => {
    const config = keyConfigOf(
      [credential('passkey', { credentials: [key('a', true), { id: 7 }, null], user_handle: 'aGFuZGxl' })],
      'passkey',
    );
    expect(config.credentials).toHaveLength(1);
    expect(config.user_handle).toBe('aGFuZGxl');
    expect(keyConfigOf([], 'webauthn')).toEqual({ credentials: [], user_handle: '' });
    expect(keyConfigOf([credential('webauthn', { credentials: 'kapot' })], 'webauthn').credentials).toEqual([]);
  });

  it('names a key by its id in hex and finds it by the base64url rawId a browser sends', () => {
    const stored = key('sleutel', false);
    expect(hexIdOf(stored)).toBe(Buffer.from('sleutel').toString('hex'));
    const config = { credentials: [stored], user_handle: '' };
    expect(findKey(config, Buffer.from('sleutel').toString('base64url'))).toBe(stored);
    expect(findKey(config, Buffer.from('ander').toString('base64url'))).toBeUndefined();
  });

  it('counts passwords, passkeys and passwordless keys as first factors, security keys as second', () => {
    const credentials = [
      credential('password', { hashed_password: '$argon2id$…' }),
      credential('passkey', { credentials: [key('p1', true), key('p2', true)] }),
      credential('webauthn', { credentials: [key('w1', false), key('w2', true)] }),
    ];
    expect(countFirstFactors(credentials)).toBe(4);
    expect(secondFactorKeys(credentials).map(hexIdOf)).toEqual([Buffer.from('w1').toString('hex')]);
    expect(countFirstFactors([credential('password', {})])).toBe(0);
  });
});
