import { noteServerContact } from '../sessions/server-contact';

/** An answer of the Users API other than 2xx, with its error envelope. */
export class UsersApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: { id?: string; reason?: string; message?: string } } | undefined,
  ) {
    super(body?.error?.reason ?? `Users API answered ${status}`);
  }
}

/** The Users API at `/api`: credentials included, JSON, a 50-second timeout by default; `signal` cancels. */
export async function usersApi<T>(
  path: string,
  options: { method?: string; body?: unknown; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 50_000);
  const response = await fetch(`/api${path}`, {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
  });
  noteServerContact(response.status);
  const text = response.status === 204 || options.method === 'HEAD' ? '' : await response.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) throw new UsersApiError(response.status, body as UsersApiError['body']);
  return body as T;
}

/** The orders of the overview's 'Sorteer op', as the Users API names them. */
export type UsersSort = 'name' | 'email' | 'type' | 'created' | 'last_sign_in';

/** One page of `GET /users?page=&per_page=&sort=&q=` and how many people the search leaves in all. */
export interface UsersPage {
  items: PortalUser[];
  total: number;
  page: number;
  per_page: number;
}

/** The statuses the overview filters on ('Status'); the Users API decides them (its `users/user-status.ts`). */
export type UsersStatus = 'active' | 'blocked' | 'locked' | 'invited' | 'no_second_factor';

/** The search and status of a list, as query fields: none for a blank search or every status. */
const filterOf = (request: { q: string; status?: UsersStatus }) => ({
  ...(request.q.trim() ? { q: request.q.trim() } : {}),
  ...(request.status ? { status: request.status } : {}),
});

/**
 * One page of the active organisation's people: `page` from 1, in an order, searched on name or address; `signal`
 * cancels it (a search overtaken by the next key).
 */
export const usersPage = (
  request: { page: number; perPage: number; sort: UsersSort; q: string; status?: UsersStatus },
  signal?: AbortSignal,
) =>
  usersApi<UsersPage>(
    `/users?${new URLSearchParams({
      page: String(request.page),
      per_page: String(request.perPage),
      sort: request.sort,
      ...filterOf(request),
    })}`,
    { signal },
  );

/** Everyone a search and status leave, in an order, as the CSV file the Users API streams (`GET /users.csv`). */
export const usersCsvFile = (request: { sort: UsersSort; q: string; status?: UsersStatus }) =>
  csvFile(`/api/users.csv?${new URLSearchParams({ sort: request.sort, ...filterOf(request) })}`);

/** What narrows 'Logboek': part of an address, an action, and the first and last day (yyyy-mm-dd); blank is none. */
export interface AuditFilter {
  person: string;
  action: string;
  from: string;
  until: string;
}

/** An entry of the audit log as `GET /audit` describes it. */
export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  label: string;
  outcome: string;
  sentence: string;
}

/** One page of `GET /audit`, the token of the next ('' at the end), and the actions the log can be narrowed to. */
export interface AuditPage {
  entries: AuditEntry[];
  next_page_token: string;
  actions: { action: string; label: string }[];
}

const auditQuery = (filter: AuditFilter) =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => value.trim() !== ''));

/** A page of the active organisation's audit log, newest first, narrowed by `filter`, from `token` on. */
export const auditPage = (filter: AuditFilter, token: string, signal?: AbortSignal) =>
  usersApi<AuditPage>(
    `/audit?${new URLSearchParams({ ...auditQuery(filter), ...(token ? { page_token: token } : {}) })}`,
    { signal },
  );

/** Every entry `filter` leaves, as the CSV file the Users API streams (`GET /audit.csv`); the download is audited. */
export const auditCsvFile = (filter: AuditFilter) =>
  csvFile(`/api/audit.csv?${new URLSearchParams(auditQuery(filter))}`);

/** A CSV file of the Users API as the bytes it came in. */
export async function csvFile(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url, {
    credentials: 'include',
    signal: AbortSignal.timeout(120_000),
  });
  noteServerContact(response.status);
  if (!response.ok) {
    const text = await response.text();
    throw new UsersApiError(response.status, text ? (JSON.parse(text) as UsersApiError['body']) : undefined);
  }
  // The bytes as they came: text() would drop the byte order mark that spreadsheet programs need.
  return response.arrayBuffer();
}

/** The Dutch reason the Users API gives for a refusal, if it gave one. */
export const reasonOf = (error: unknown) =>
  error instanceof UsersApiError ? error.body?.error?.message || undefined : undefined;

/** Makes another of the person's organisations the one they work for. */
export const switchOrganisation = (organisation: string) =>
  usersApi<{ activeOrg: { id: string; label: string } }>('/users/active-organisation', {
    method: 'PUT',
    body: { organisation },
  });

/** The invited person consents: they become a member with the invited data roles. */
export const acceptInvitation = (id: string) =>
  usersApi<{ organisation: { id: string; label: string } }>(`/invitations/${encodeURIComponent(id)}/accept`, {
    method: 'POST',
  });

export const declineInvitation = (id: string) =>
  usersApi<void>(`/invitations/${encodeURIComponent(id)}/decline`, { method: 'POST' });

/** The person leaves an organisation other than their home. */
export const leaveOrganisation = (organisation: string) =>
  usersApi<void>(`/users/organisations/${encodeURIComponent(organisation)}`, { method: 'DELETE' });

/** An administrator of the inviting organisation sends an invitation again: a new mail, valid from now. */
export const resendInvitation = (id: string) =>
  usersApi<{ id: string; expiresAt: string }>(`/invitations/${encodeURIComponent(id)}/resend`, { method: 'POST' });

/** An administrator of the inviting organisation takes an invitation back. */
export const withdrawInvitation = (id: string) =>
  usersApi<void>(`/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' });

export interface Permission {
  namespace: string;
  object: string;
  relation: string;
  subject_id?: string;
  label: string;
  roleId?: string;
}

export interface PortalUser {
  id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  traits: { email: string; name: { first: string; last: string } };
  created_at: string;
  credentials: string[];
  /** The kinds of factor the person has; the home organisation sees them (absent from older servers). */
  factors?: FactorKind[];
  verified: boolean;
  permissions: Permission[];
  userType: { id: 'administrator' | 'analyst'; label: string };
  /** False for a guest: the account belongs to another organisation, which alone changes it (docs/organisations.md). */
  home?: boolean;
  /** A pending invitation: the person is not a member yet; the permissions are the invited ones. */
  invitation?: { id: string; expiresAt: string };
  /** Locked after too many failed sign-ins until then; shown to the home organisation only. */
  lockedUntil?: string;
  /** When a member last signed in (null: never); absent for an invitation and from older servers. */
  lastSignInAt?: string | null;
}

/** One of the organisations the signed-in person belongs to (whoami's `organisations`, sorted by label). */
export interface Membership {
  id: string;
  label: string;
  isAdmin: boolean;
  requiresAal2: boolean;
  /** The organisation that created the account and alone changes it. */
  home: boolean;
  /** The organisation the person works for now: `activeOrg` and `isAdmin` describe it. */
  active: boolean;
}

/** An invitation waiting for the signed-in person's consent. */
export interface PendingInvitation {
  id: string;
  organisation: { id: string; label: string };
  /** The e-mail address of the administrator who invited. */
  invitedBy: string;
  isAdmin: boolean;
  dataRoles: { roleId: string; label: string }[];
  expiresAt: string;
}

export interface CurrentUser {
  active: boolean;
  identity: PortalUser;
  permissions: Permission[];
  activeOrg: { id: string; label: string; subdivisions: { id: string; label: string }[] } | null;
  isAdmin: boolean;
  /** Holds the programme administrator's role ('Programmabeheer'); absent from older servers. */
  isProgrammeAdmin?: boolean;
  authenticator_assurance_level: 'aal0' | 'aal1' | 'aal2';
  /** The session's authentication methods by name: `password`, `totp`, `passkey`, `webauthn`, … */
  authentication_methods?: string[];
  aal2Required: boolean;
  /**
   * Whether this sign-in meets the second-factor policy: the server decides (a passkey or security key counts,
   * docs/organisations.md); absent from older servers, where only aal2 counts.
   */
  secondFactorMet?: boolean;
  // Optional: a server from before people could belong to several organisations leaves these out.
  homeOrganisation?: string | null;
  organisations?: Membership[];
  invitations?: PendingInvitation[];
}

/**
 * Where a signed-in person must go before anything else when their organisation requires a second factor and the
 * session has none yet: the second-factor step, or enrolment when no authenticator app is linked.
 */
export function secondFactorGate(user: CurrentUser): string | undefined {
  if (!user.aal2Required || (user.secondFactorMet ?? user.authenticator_assurance_level === 'aal2')) return undefined;
  const credentials = user.identity.credentials;
  if (credentials.includes('totp') || credentials.includes('webauthn')) return '/login?aal=aal2';
  // A passkey is no second step in Kratos but a way to sign in: confirming the session with it (a refresh sign-in)
  // adds it to the session's methods, which meets the policy.
  if (credentials.includes('passkey')) return '/login?refresh=true&passkey=1';
  return '/settings/2fa-app';
}

/**
 * The second-factor gate, coming back to `path` (a page of the portal or a data service's sign-in at its provider)
 * afterwards when the gate is a sign-in step, which follows a return_to; enrolment has its own way on.
 */
export function secondFactorGateBackTo(user: CurrentUser, path: string): string | undefined {
  const gate = secondFactorGate(user);
  const back = `${window.location.origin}${path}`;
  return gate?.startsWith('/login?') ? `${gate}&return_to=${encodeURIComponent(back)}` : gate;
}

/** The kinds of factor the Users API names (its `users/second-factor.ts`). */
export type FactorKind = 'app' | 'backup_codes' | 'security_key' | 'passkey';

export interface PortalConfig {
  title: string;
  description: string;
  supportEmail: string | null;
  feedbackEmail: string | null;
  /** The organisation's accessibility statement (toegankelijkheidsverklaring), linked at the foot of every page. */
  accessibilityStatementUrl: string | null;
  privacyStatementUrl: string | null;
  registrationEnabled: boolean;
  dashboardAllowlist: boolean;
  /** Seconds without a request after which the session ends; null when the identity provider has no idle timeout. */
  sessionIdleSeconds: number | null;
}
