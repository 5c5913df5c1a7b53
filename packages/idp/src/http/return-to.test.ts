import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdpConfig } from '../config.js';
import { HttpError } from '../errors/herodot.js';
import { publicUrlOf, uiUrl, validateReturnTo } from './return-to.js';

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
    expect(validateReturnTo(config, 'https://portaal.example.nl/settings').toString()).toBe(
      'https://portaal.example.nl/settings',
    );
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

describe('return_to, more rules', () => {
  it('always allows the self-service endpoints of the portal, even when not listed', () => {
    const narrow = { publicUrl: new URL('https://portaal.example.nl/'), allowedReturnUrls: [] } as unknown as IdpConfig;
    expect(validateReturnTo(narrow, '/self-service/login/browser').pathname).toBe('/self-service/login/browser');
    expect(() => validateReturnTo(narrow, '/permissies')).toThrow(HttpError);
    expect(() => validateReturnTo(narrow, '/self-servicex')).toThrow(HttpError);
  });

  it('matches hosts case-insensitively but refuses another port or scheme', () => {
    expect(validateReturnTo(config, 'HTTPS://PORTAAL.Example.NL/x').host).toBe('portaal.example.nl');
    expect(refused('https://portaal.example.nl:8443/')).toBe(true);
    expect(refused('ftp://portaal.example.nl/')).toBe(true);
    expect(refused('data:text/html,<script>alert(1)</script>')).toBe(true);
  });

  it('normalises dot segments before comparing path prefixes', () => {
    expect(refused('https://data.example.nl/diensten/../admin')).toBe(true);
    expect(refused('https://data.example.nl/diensten/%2e%2e/admin')).toBe(true);
    expect(validateReturnTo(config, 'https://data.example.nl/diensten/./kaart?x=1#y').pathname).toBe('/diensten/kaart');
  });

  it('allows subdomains with a wildcard entry, but not the bare domain or look-alikes', () => {
    const wild = {
      publicUrl: new URL('https://portaal.example.nl/'),
      allowedReturnUrls: [new URL('https://*.apps.example.nl/')],
    } as unknown as IdpConfig;
    expect(validateReturnTo(wild, 'https://kaart.apps.example.nl/a').host).toBe('kaart.apps.example.nl');
    for (const value of [
      'https://apps.example.nl/',
      'https://evilapps.example.nl/',
      'https://apps.example.nl.evil.com/',
      'http://kaart.apps.example.nl/',
    ]) {
      expect(() => validateReturnTo(wild, value), value).toThrow(HttpError);
    }
  });

  it('refuses values longer than 2048 characters and tabs or newlines', () => {
    expect(validateReturnTo(config, `/${'a'.repeat(2047)}`).pathname).toHaveLength(2048);
    expect(refused(`/${'a'.repeat(2048)}`)).toBe(true);
    expect(refused('/\tpermissies')).toBe(true);
    expect(refused('https://portaal.example.nl/\n')).toBe(true);
  });

  it('answers 400 with the refused value in the reason', () => {
    try {
      validateReturnTo(config, 'https://evil.com/');
      expect.unreachable();
    } catch (error) {
      expect((error as HttpError).toEnvelope()).toMatchObject({
        error: {
          code: 400,
          id: 'self_service_flow_return_to_forbidden',
          reason: 'Requested return_to URL "https://evil.com/" is not allowed.',
        },
      });
    }
  });

  it('only ever returns a URL on an allowed origin, whatever it is given', () => {
    const origins = new Set(['https://portaal.example.nl', 'https://data.example.nl']);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.string().map((s) => `//${s}`),
        ),
        (value) => {
          let result: URL;
          try {
            result = validateReturnTo(config, value);
          } catch {
            return;
          }
          expect(origins.has(result.origin)).toBe(true);
          expect(result.username + result.password).toBe('');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('builds UI and public URLs on the public origin, leaving out undefined query values', () => {
    expect(uiUrl(config, 'login', { flow: 'abc' })).toBe('https://portaal.example.nl/login?flow=abc');
    expect(publicUrlOf(config, '/self-service/login/browser', { return_to: '/x', refresh: undefined })).toBe(
      'https://portaal.example.nl/self-service/login/browser?return_to=%2Fx',
    );
  });
});
