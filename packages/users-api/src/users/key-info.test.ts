import { describe, expect, it } from 'vitest';
import { keysInConfig } from './key-info.js';

describe('keys in Kratos’ stored credential config', () => {
  it('gives the id in hex as the settings flow does, the name, the date and whether it is synced', () => {
    const config = {
      credentials: [
        {
          id: Buffer.from('key-1').toString('base64'),
          public_key: 'never shown',
          display_name: 'YubiKey werk',
          added_at: '2026-11-01T10:00:00Z',
          flags: { user_present: true, user_verified: false, backup_eligible: false, backup_state: false },
        },
        { id: Buffer.from('key-2').toString('base64'), display_name: 'telefoon', added_at: '0001-01-01T00:00:00Z' },
        { display_name: 'zonder id' },
      ],
      user_handle: 'dXNlcg==',
    };
    expect(keysInConfig('webauthn', config)).toEqual([
      { kind: 'security_key', id: '6b65792d31', name: 'YubiKey werk', addedAt: '2026-11-01T10:00:00Z', synced: false },
      { kind: 'security_key', id: '6b65792d32', name: 'telefoon' },
    ]);
    const synced = { credentials: [{ id: 'AQI=', display_name: 'a', flags: { backup_state: true } }] };
    expect(keysInConfig('passkey', synced)).toEqual([{ kind: 'passkey', id: '0102', name: 'a', synced: true }]);
  });

  it('gives nothing for other credentials or a config of another shape', () => {
    expect(keysInConfig('totp', { credentials: [{ id: 'AQI=' }] })).toEqual([]);
    expect(keysInConfig('webauthn', null)).toEqual([]);
    expect(keysInConfig('passkey', { credentials: 'x' })).toEqual([]);
  });
});
