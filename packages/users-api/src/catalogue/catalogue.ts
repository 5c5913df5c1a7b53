import { z } from 'zod';
import { hasHiddenCharacters } from '@portaal/idp';

// Catalogue ids are used inside tuple objects (`roleId_orgId`), so they never contain `_`
// (docs/architecture.md#relation-tuples).
export const catalogueId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'alleen kleine letters, cijfers en koppeltekens (geen _)');
// Labels stand in mails (a subject among them) and lists: no control or format characters, so no line break that
// starts a header and no right-to-left override that turns the text around (docs/security.md#34-sql-and-mail-headers).
const HIDDEN = 'geen stuurtekens of onzichtbare tekens';
export const catalogueLabel = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((value) => !hasHiddenCharacters(value), HIDDEN);

const dataRole = z.object({ id: catalogueId, label: catalogueLabel }).strict();
const organisation = z
  .object({
    id: catalogueId,
    label: catalogueLabel,
    requiresAal2: z.boolean().default(true),
    // A deactivated organisation keeps everything, but admits nobody to a data service.
    active: z.boolean().default(true),
    dataRoles: z.array(dataRole).default([]),
  })
  .strict();
const serviceUrl = z.url({ protocol: /^https?$/, error: 'geen geldig adres dat met https:// of http:// begint' });
// Never a secret here: a confidential client's secret comes from the environment or a secrets file
// (docs/architecture.md#single-sign-on-for-the-data-services).
const oidcClient = z
  .object({
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, cijfers, punten, koppeltekens en _, hoogstens 64 tekens'),
    type: z.enum(['confidential', 'public']).default('confidential'),
    redirectUris: z.array(serviceUrl).min(1, 'geef minstens één redirect-URI'),
    postLogoutRedirectUris: z.array(serviceUrl).default([]),
    backchannelLogoutUri: serviceUrl.optional(),
    // OpenID Connect's `initiate_login_uri`: where the portal's 'Datavoorzieningen' starts a sign-in at the service.
    initiateLoginUri: serviceUrl.optional(),
  })
  .strict();
/** A data service as the catalogue file writes it; 'Programmabeheer' takes the same shape. */
export const catalogueService = z
  .object({
    id: catalogueId,
    name: catalogueLabel,
    description: z
      .string()
      .trim()
      .max(2000)
      .refine((value) => !hasHiddenCharacters(value.replace(/\n/g, ' ')), HIDDEN)
      .default(''),
    url: serviceUrl,
    access: z
      .object({
        organisations: z.array(catalogueId).default([]),
        dataRoles: z
          .array(z.string().regex(/^[a-z0-9-]+_[a-z0-9-]+$/, 'schrijf een datarol als rolId_organisatieId'))
          .default([]),
      })
      .strict(),
    // Whether a reverse proxy may ask about it (`GET /api/forward-auth`); a service that only signs in through OpenID
    // Connect can be closed to it.
    forwardAuth: z.boolean().default(true),
    oidc: oidcClient.optional(),
  })
  .strict();

const catalogueFileSchema = z
  .object({ organisations: z.array(organisation), services: z.array(catalogueService).default([]) })
  .strict();

export interface DataRole {
  id: string;
  label: string;
}
export interface Organisation {
  id: string;
  label: string;
  requiresAal2: boolean;
  /** False once deactivated: its membership and data roles admit nobody to a data service. */
  active: boolean;
  dataRoles: DataRole[];
}
/** A service that signs in through the portal's OpenID Connect provider: its client registration. */
export interface OidcClientSettings {
  clientId: string;
  type: 'confidential' | 'public';
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri?: string;
  initiateLoginUri?: string;
}
export interface DataService {
  id: string;
  name: string;
  description: string;
  url: string;
  organisations: string[];
  dataRoles: string[];
  /** Answered by forward authentication; when false, `GET /api/forward-auth` does not know the service. */
  forwardAuth: boolean;
  oidc?: OidcClientSettings;
}
export interface Catalogue {
  organisations: Organisation[];
  services: DataService[];
}

export class CatalogueError extends Error {}

const pathText = (path: PropertyKey[]) =>
  path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );

/**
 * Validates a catalogue: shape, unique ids, and services that only name known organisations and data roles.
 * The error names the path of the first bad entry, e.g. `organisations[2].dataRoles[0].id`.
 */
export function parseCatalogue(raw: unknown): Catalogue {
  const parsed = catalogueFileSchema.safeParse(raw, { error: z.locales.nl().localeError });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CatalogueError(`${pathText(issue.path) || '(hoofdniveau)'}: ${issue.message}`);
  }
  const file = parsed.data;
  const organisations = new Map<string, Organisation>();
  file.organisations.forEach((org, index) => {
    if (organisations.has(org.id)) throw new CatalogueError(`organisations[${index}].id: '${org.id}' komt vaker voor`);
    const roles = new Set<string>();
    org.dataRoles.forEach((role, roleIndex) => {
      if (roles.has(role.id))
        throw new CatalogueError(`organisations[${index}].dataRoles[${roleIndex}].id: '${role.id}' komt vaker voor`);
      roles.add(role.id);
    });
    organisations.set(org.id, org);
  });
  const serviceIds = new Set<string>();
  const clientIds = new Set<string>();
  const services = file.services.map((item, index) => {
    if (serviceIds.has(item.id)) throw new CatalogueError(`services[${index}].id: '${item.id}' komt vaker voor`);
    serviceIds.add(item.id);
    item.access.organisations.forEach((orgId, i) => {
      if (!organisations.has(orgId))
        throw new CatalogueError(`services[${index}].access.organisations[${i}]: onbekende organisatie '${orgId}'`);
    });
    item.access.dataRoles.forEach((object, i) => {
      const [roleId, orgId] = object.split('_') as [string, string];
      if (!organisations.get(orgId)?.dataRoles.some((r) => r.id === roleId)) {
        throw new CatalogueError(`services[${index}].access.dataRoles[${i}]: onbekende datarol '${object}'`);
      }
    });
    if (item.access.organisations.length + item.access.dataRoles.length === 0) {
      throw new CatalogueError(
        `services[${index}].access: geef aan welke organisaties of datarollen deze dienst mogen gebruiken`,
      );
    }
    if (item.oidc) {
      if (clientIds.has(item.oidc.clientId))
        throw new CatalogueError(`services[${index}].oidc.clientId: '${item.oidc.clientId}' komt vaker voor`);
      clientIds.add(item.oidc.clientId);
    }
    return {
      id: item.id,
      name: item.name,
      description: item.description,
      url: item.url,
      organisations: item.access.organisations,
      dataRoles: item.access.dataRoles,
      forwardAuth: item.forwardAuth,
      ...(item.oidc ? { oidc: oidcClientSettings(item.oidc) } : {}),
    };
  });
  return { organisations: [...organisations.values()], services };
}

/** The settings in one key order, so that a parsed catalogue and a stored one compare equal as JSON. */
export function oidcClientSettings(settings: OidcClientSettings): OidcClientSettings {
  return {
    clientId: settings.clientId,
    type: settings.type,
    redirectUris: settings.redirectUris,
    postLogoutRedirectUris: settings.postLogoutRedirectUris,
    ...(settings.backchannelLogoutUri ? { backchannelLogoutUri: settings.backchannelLogoutUri } : {}),
    ...(settings.initiateLoginUri ? { initiateLoginUri: settings.initiateLoginUri } : {}),
  };
}

export const dataRoleObject = (roleId: string, orgId: string) => `${roleId}_${orgId}`;
