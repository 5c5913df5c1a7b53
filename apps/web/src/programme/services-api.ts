import { usersApi } from '../api/users-api';

// The data services of 'Programmabeheer' (`/api/programme/services`), in the catalogue file's shape.

/** A data service's OpenID Connect client registration. */
export interface OidcClient {
  clientId: string;
  /** A confidential client has a back end that keeps a secret; a public one (no back end) signs in with PKCE only. */
  type: 'confidential' | 'public';
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri?: string;
  /** Where 'Datavoorzieningen' starts a sign-in at the service (`initiate_login_uri`). */
  initiateLoginUri?: string;
}

/** A data service of the programme, as `GET /programme/services` lists it and the form sends it. */
export interface ProgrammeService {
  id: string;
  name: string;
  description: string;
  url: string;
  /** Who may use it: members of these organisations, holders of these data roles (`roleId_orgId`). */
  access: { organisations: string[]; dataRoles: string[] };
  /** Whether a reverse proxy may ask the portal about it (`GET /api/forward-auth`). */
  forwardAuth: boolean;
  oidc?: OidcClient;
}

/** A service saved: as the server now describes it, and a new client secret when one was made (shown only now). */
export interface SavedService {
  service: ProgrammeService;
  clientSecret?: string;
}

/** A rotated client secret: the new one (shown only now) and until when the previous ones keep working. */
export interface RotatedSecret {
  clientSecret: string;
  previousValidUntil: string;
}

const serviceUrl = (id: string) => `/programme/services/${encodeURIComponent(id)}`;

/** Every data service of the programme, in the catalogue's order. */
export const programmeServices = (signal?: AbortSignal) =>
  usersApi<{ services: ProgrammeService[] }>('/programme/services', { signal });

/** A new data service; 409 `service_exists` when its code is taken. */
export const addService = (service: ProgrammeService) =>
  usersApi<SavedService>('/programme/services', { method: 'POST', body: service });

/** The service as a whole, replaced; its code stays. A confidential client whose client id changed gets a secret. */
export const changeService = (service: ProgrammeService) =>
  usersApi<SavedService>(serviceUrl(service.id), { method: 'PUT', body: service });

/** Removes the service from the catalogue, with its client's secrets. */
export const removeService = (id: string) => usersApi<void>(serviceUrl(id), { method: 'DELETE' });

/** A new client secret; the previous ones stay valid for `overlapHours` (0 to 720). */
export const rotateClientSecret = (id: string, overlapHours: number) =>
  usersApi<RotatedSecret>(`${serviceUrl(id)}/client-secret`, { method: 'POST', body: { overlapHours } });
