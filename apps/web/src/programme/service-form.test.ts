import { describe, expect, it } from 'vitest';
import {
  CLIENT_ID_RULE,
  formValuesOf,
  refusedServiceField,
  serviceFormSchema,
  serviceOf,
  URLS_RULE,
} from './service-form';
import type { ProgrammeService } from './services-api';

const SERVICE: ProgrammeService = {
  id: 'wijkmonitor',
  name: 'Wijkmonitor',
  description: 'Cijfers per wijk',
  url: 'https://wijkmonitor.example.nl/',
  access: { organisations: ['dego'], dataRoles: ['ruimte_voorbeeldstad'] },
  forwardAuth: false,
  oidc: {
    clientId: 'wijkmonitor',
    type: 'public',
    redirectUris: ['https://wijkmonitor.example.nl/cb', 'https://wijkmonitor.example.nl/cb2'],
    postLogoutRedirectUris: ['https://wijkmonitor.example.nl/'],
    backchannelLogoutUri: 'https://wijkmonitor.example.nl/bc',
    initiateLoginUri: 'https://wijkmonitor.example.nl/login',
  },
};

describe('service form', () => {
  it('turns a service into the form and back unchanged, with or without a client', () => {
    const schema = serviceFormSchema(true);
    expect(serviceOf(schema.parse(formValuesOf(SERVICE)))).toEqual(SERVICE);
    const { oidc: _, ...withoutClient } = SERVICE;
    expect(serviceOf(schema.parse(formValuesOf(withoutClient)))).toEqual(withoutClient);
  });

  it('drops empty lines and empty optional addresses, and ignores the client fields when it is off', () => {
    const values = { ...formValuesOf(SERVICE), redirectUris: '\n https://a.nl/cb \n\n', initiateLoginUri: ' ' };
    expect(serviceOf(serviceFormSchema(true).parse(values)).oidc).toEqual({
      ...SERVICE.oidc,
      redirectUris: ['https://a.nl/cb'],
      initiateLoginUri: undefined,
    });
    const wrong = { ...formValuesOf(SERVICE), clientId: 'met spatie', redirectUris: 'geen adres' };
    expect(
      serviceFormSchema(true)
        .safeParse(wrong)
        .error?.issues.map((issue) => issue.message),
    ).toEqual([CLIENT_ID_RULE, URLS_RULE]);
    // Switched off, the client's fields are hidden: what they hold neither counts nor is sent.
    const off = serviceFormSchema(true).parse({ ...wrong, oidc: false });
    expect(serviceOf(off).oidc).toBeUndefined();
  });

  it("finds the field of a server's refusal by the path its reason ends with", () => {
    const at = (path: string) => refusedServiceField(`The data service is not valid at ${path}.`);
    expect(at('oidc.clientId')).toBe('clientId');
    expect(at('access.dataRoles[0]')).toBe('organisations');
    expect(at('oidc.redirectUris[1]')).toBe('redirectUris');
    expect(at('name')).toBe('label');
    expect(at('forwardAuth')).toBeUndefined();
    expect(refusedServiceField('Something else')).toBeUndefined();
  });
});
