import { describe, expect, it } from 'vitest';
import type { DataService } from '../catalogue/catalogue.js';
import { originalUrl, signInUrl } from './sign-in-url.js';

const service: DataService = {
  id: 'kaart',
  name: 'Kaart',
  description: '',
  url: 'https://kaart.example.nl/start',
  organisations: ['stad'],
  dataRoles: [],
};

describe('originalUrl', () => {
  it('rebuilds the address the browser asked for from the forwarded headers', () => {
    const headers = {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'kaart.example.nl',
      'x-forwarded-uri': '/wijk/12?jaar=2025&x=a,b#deel',
    };
    expect(originalUrl(headers, service)).toBe('https://kaart.example.nl/wijk/12?jaar=2025&x=a,b#deel');
  });

  it("falls back to the service's url for anything off its origin or not an address", () => {
    const off = [
      { 'x-forwarded-host': 'evil.example' },
      { 'x-forwarded-host': 'kaart.example.nl', 'x-forwarded-proto': 'http' },
      { 'x-forwarded-host': 'kaart.example.nl@evil.example' },
      {},
    ];
    for (const headers of off) expect(originalUrl(headers, service)).toBe('https://kaart.example.nl/start');
    // A path that is no path, or one that would read as another host, is the root of the service's host.
    for (const uri of ['geen-pad', '//evil.example/'])
      expect(originalUrl({ 'x-forwarded-host': 'kaart.example.nl', 'x-forwarded-uri': uri }, service)).toBe(
        'https://kaart.example.nl/',
      );
  });
});

describe('signInUrl', () => {
  it("is the portal's sign-in with the return address encoded, and the second step when asked", () => {
    const portal = new URL('https://portaal.example.nl');
    const back = 'https://kaart.example.nl/wijk?jaar=2025&x=1';
    const first = new URL(signInUrl(portal, back, false));
    expect(first.origin + first.pathname).toBe('https://portaal.example.nl/login');
    expect(first.searchParams.get('return_to')).toBe(back);
    expect(first.searchParams.has('aal')).toBe(false);
    expect(new URL(signInUrl(portal, back, true)).searchParams.get('aal')).toBe('aal2');
  });
});
