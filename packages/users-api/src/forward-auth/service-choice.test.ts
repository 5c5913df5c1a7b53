import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../catalogue/catalogue.js';
import { ApiError } from '../api-error.js';
import { chooseService, type ServiceAsked } from './service-choice.js';

const catalogue = parseCatalogue({
  organisations: [{ id: 'stad', label: 'Stad', dataRoles: [{ id: 'ruimte', label: 'Ruimte' }] }],
  services: [
    { id: 'kaart', name: 'Kaart', url: 'https://kaart.example.nl', access: { organisations: ['stad'] } },
    { id: 'lokaal', name: 'Lokaal', url: 'http://127.0.0.1:8080/', access: { organisations: ['stad'] } },
    { id: 'portaal-a', name: 'A', url: 'https://portaal.example.nl/a/', access: { organisations: ['stad'] } },
    { id: 'portaal-ab', name: 'AB', url: 'https://portaal.example.nl/a/b', access: { organisations: ['stad'] } },
    { id: 'dubbel-1', name: 'D1', url: 'https://dubbel.example.nl/', access: { organisations: ['stad'] } },
    { id: 'dubbel-2', name: 'D2', url: 'https://dubbel.example.nl', access: { dataRoles: ['ruimte_stad'] } },
  ],
});

const chosen = (asked: ServiceAsked) => chooseService(catalogue, asked).id;
const refusal = (asked: ServiceAsked) => {
  try {
    chooseService(catalogue, asked);
  } catch (error) {
    if (error instanceof ApiError) return `${error.code} ${error.id}`;
    throw error;
  }
  return 'chosen';
};

describe('chooseService', () => {
  it('takes the service ?service= names, whatever the forwarded host says', () => {
    expect(chosen({ serviceId: 'kaart', forwardedHost: '127.0.0.1:8080' })).toBe('kaart');
    expect(refusal({ serviceId: 'onbekend', forwardedHost: 'kaart.example.nl' })).toBe('404 service_not_found');
  });

  it('matches the forwarded host against the host of each url, in any case and with the default port', () => {
    expect(chosen({ forwardedHost: 'kaart.example.nl' })).toBe('kaart');
    expect(chosen({ forwardedHost: 'KAART.example.NL:443', forwardedProto: 'https' })).toBe('kaart');
    expect(chosen({ forwardedHost: '127.0.0.1:8080', forwardedProto: 'http', forwardedUri: '/x?y=1' })).toBe('lokaal');
    expect(refusal({ forwardedHost: '127.0.0.1:8081', forwardedProto: 'http' })).toBe('404 service_not_found');
    expect(refusal({ forwardedHost: 'kaart.example.nl.evil.example' })).toBe('404 service_not_found');
  });

  it('tells services on one host apart by the deepest path the request lies under', () => {
    const on = (uri: string) => chosen({ forwardedHost: 'portaal.example.nl', forwardedUri: uri });
    expect(on('/a/')).toBe('portaal-a');
    expect(on('/a/c?d=1')).toBe('portaal-a');
    expect(on('/a/b')).toBe('portaal-ab');
    expect(on('/a/b/c')).toBe('portaal-ab');
    expect(on('/a/bc')).toBe('portaal-a');
    // `/a` is not under `/a/`: the proxy's prefix location does not route it there either.
    expect(refusal({ forwardedHost: 'portaal.example.nl', forwardedUri: '/a' })).toBe('404 service_not_found');
    expect(refusal({ forwardedHost: 'portaal.example.nl', forwardedUri: '/ander' })).toBe('404 service_not_found');
  });

  it('tells them apart on the path as the proxy routes it, and refuses a path read in two ways', () => {
    const on = (uri: string) => chosen({ forwardedHost: 'portaal.example.nl', forwardedUri: uri });
    expect(on('/%61/b/c')).toBe('portaal-ab');
    expect(on('/x/../a/b/')).toBe('portaal-ab');
    expect(on('//a//b')).toBe('portaal-ab');
    expect(on('/a/b/%2e%2e/c')).toBe('portaal-a');
    const at = (uri: string) => refusal({ forwardedHost: 'portaal.example.nl', forwardedUri: uri });
    for (const uri of ['/a%2fb/', '/a/%5cb', '/a\\b', '/a/%00', '/../a/b', '/a/%c0%ae%c0%ae/', '/a/%zz', 'a/b']) {
      expect(at(uri), uri).toBe('400 service_path_refused');
    }
    // A host whose only service is at its root: the path decides nothing, so an encoded slash is the service's own.
    expect(chosen({ forwardedHost: 'kaart.example.nl', forwardedUri: '/api/groep%2Fproject' })).toBe('kaart');
    // ?service= decides alone, whatever the path.
    expect(chosen({ serviceId: 'portaal-a', forwardedHost: 'portaal.example.nl', forwardedUri: '/a%2fb' })).toBe(
      'portaal-a',
    );
  });

  it('refuses to guess: nothing to go by, two services alike, or a host that is no host', () => {
    expect(refusal({})).toBe('400 service_not_named');
    expect(refusal({ forwardedHost: 'dubbel.example.nl' })).toBe('400 service_ambiguous');
    expect(chosen({ serviceId: 'dubbel-2', forwardedHost: 'dubbel.example.nl' })).toBe('dubbel-2');
    for (const host of ['kaart.example.nl/pad', 'iemand@kaart.example.nl', 'kaart.example.nl\r\nX: y', 'a b', '[::1'])
      expect(refusal({ forwardedHost: host })).toBe('404 service_not_found');
  });
});
