import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdpConfig } from '../config.js';
import { HttpError } from '../errors/herodot.js';
import { validateReturnTo } from './return-to.js';

const config = {
  publicUrl: new URL('https://portaal.example.nl/'),
  allowedReturnUrls: [new URL('https://portaal.example.nl/'), new URL('https://data.example.nl/diensten')],
} as unknown as IdpConfig;

const refused = (value: string) => {
  try {
    validateReturnTo(config, value);
  } catch (error) {
    return error instanceof HttpError && error.id === 'self_service_flow_return_to_forbidden';
  }
  return false;
};

describe('return_to allow-list', () => {
  it('accepts the portal itself, relative paths and allowed path prefixes', () => {
    expect(validateReturnTo(config, 'https://portaal.example.nl/settings').toString()).toBe('https://portaal.example.nl/settings');
    expect(validateReturnTo(config, '/permissies').toString()).toBe('https://portaal.example.nl/permissies');
    expect(validateReturnTo(config, 'https://data.example.nl/diensten/kaart').host).toBe('data.example.nl');
    expect(validateReturnTo(config, 'https://data.example.nl/diensten').host).toBe('data.example.nl');
  });

  it.each([
    'https://evil.example.com/',
    'https://portaal.example.nl.evil.com/',
    '//evil.com/x',
    '/\\evil.com',
    'javascript:alert(1)',
    'http://portaal.example.nl/settings',
    'https://user@evil.com@portaal.example.nl/',
    'https://portaal.example.nl@evil.com/',
    'https://data.example.nl/dienstenlijst',
    'https://data.example.nl/',
    'https://portaal.example.nl/\u0000',
  ])('refuses %s', (value) => {
    expect(refused(value)).toBe(true);
  });

  it('never accepts a host outside the list', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const host = new URL(url).host;
        if (host === 'portaal.example.nl' || host === 'data.example.nl') return;
        expect(refused(url)).toBe(true);
      }),
    );
  });
});
