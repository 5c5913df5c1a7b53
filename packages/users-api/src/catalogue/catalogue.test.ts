import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogueError, parseCatalogue } from './catalogue.js';

const demo = JSON.parse(readFileSync(new URL('../../catalogue/demo-catalogue.json', import.meta.url), 'utf8'));
const refusal = (raw: unknown) => {
  try {
    parseCatalogue(raw);
  } catch (error) {
    if (error instanceof CatalogueError) return error.message;
    throw error;
  }
  return undefined;
};

describe('catalogue', () => {
  it('accepts the demo catalogue, with dego exempt from aal2', () => {
    const catalogue = parseCatalogue(demo);
    expect(catalogue.organisations.map((o) => o.id)).toEqual(['voorbeeldstad', 'dijkstad', 'dego']);
    expect(catalogue.organisations.find((o) => o.id === 'dego')?.requiresAal2).toBe(false);
    expect(catalogue.organisations.find((o) => o.id === 'voorbeeldstad')?.requiresAal2).toBe(true);
  });

  it('defaults requiresAal2 to true', () => {
    expect(parseCatalogue({ organisations: [{ id: 'a', label: 'A' }] }).organisations[0]?.requiresAal2).toBe(true);
  });

  it('names the path of the bad entry', () => {
    const bad = structuredClone(demo);
    bad.organisations[1].dataRoles[0].id = 'met_underscore';
    expect(refusal(bad)).toMatch(/^organisations\[1\]\.dataRoles\[0\]\.id: /);
    expect(refusal({ organisations: [{ id: 'a' }] })).toMatch(/^organisations\[0\]\.label: /);
    expect(refusal({ organisations: [], extra: 1 })).toBeDefined();
    expect(refusal([])).toMatch(/^\(hoofdniveau\): /);
  });

  it('refuses duplicate ids and services that name unknown organisations or data roles', () => {
    expect(
      refusal({
        organisations: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B' },
        ],
      }),
    ).toBe("organisations[1].id: 'a' komt vaker voor");
    const service = (access: unknown) => ({
      organisations: [{ id: 'a', label: 'A', dataRoles: [{ id: 'r', label: 'R' }] }],
      services: [{ id: 's', name: 'S', url: 'https://s.example.nl', access }],
    });
    expect(refusal(service({ organisations: ['b'] }))).toBe(
      "services[0].access.organisations[0]: onbekende organisatie 'b'",
    );
    expect(refusal(service({ dataRoles: ['x_a'] }))).toBe("services[0].access.dataRoles[0]: onbekende datarol 'x_a'");
    expect(refusal(service({}))).toMatch(/^services\[0\]\.access: /);
    expect(parseCatalogue(service({ dataRoles: ['r_a'] })).services[0]?.dataRoles).toEqual(['r_a']);
  });

  it('refuses service URLs that are not http(s)', () => {
    const raw = {
      organisations: [{ id: 'a', label: 'A' }],
      services: [{ id: 's', name: 'S', url: 'javascript:alert(1)', access: { organisations: ['a'] } }],
    };
    expect(refusal(raw)).toMatch(/^services\[0\]\.url: /);
  });

  describe('a service signing in through the portal (oidc)', () => {
    const withClients = (...clients: unknown[]) => ({
      organisations: [{ id: 'a', label: 'A' }],
      services: clients.map((oidc, i) => ({
        id: `s${i}`,
        name: 'S',
        url: 'https://s.example.nl',
        access: { organisations: ['a'] },
        oidc,
      })),
    });

    it('reads the client registration, confidential unless it says public', () => {
      const [confidential, open] = parseCatalogue(
        withClients(
          { clientId: 'grafana', redirectUris: ['https://g.example.nl/login/generic_oauth'] },
          { clientId: 'kaart', type: 'public', redirectUris: ['https://k.example.nl/cb'], postLogoutRedirectUris: [] },
        ),
      ).services;
      expect(confidential?.oidc).toEqual({
        clientId: 'grafana',
        type: 'confidential',
        redirectUris: ['https://g.example.nl/login/generic_oauth'],
        postLogoutRedirectUris: [],
      });
      expect(open?.oidc?.type).toBe('public');
    });

    it('refuses a secret in the catalogue, a client id used twice and a client without a redirect address', () => {
      expect(
        refusal(withClients({ clientId: 'g', clientSecret: 'x', redirectUris: ['https://g.example.nl/cb'] })),
      ).toMatch(/^services\[0\]\.oidc: /);
      expect(
        refusal(
          withClients(
            { clientId: 'g', redirectUris: ['https://g.example.nl/cb'] },
            { clientId: 'g', redirectUris: ['https://h.example.nl/cb'] },
          ),
        ),
      ).toBe("services[1].oidc.clientId: 'g' komt vaker voor");
      expect(refusal(withClients({ clientId: 'g', redirectUris: [] }))).toMatch(/^services\[0\]\.oidc\.redirectUris: /);
      expect(refusal(withClients({ clientId: 'g', redirectUris: ['javascript:alert(1)'] }))).toMatch(
        /^services\[0\]\.oidc\.redirectUris\[0\]: /,
      );
    });
  });
});
