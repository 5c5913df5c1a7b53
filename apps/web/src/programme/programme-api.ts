import { usersApi, UsersApiError } from '../api/users-api';

// 'Programmabeheer' calls of the Users API; apart from api/users-api.ts, so that only this screen's code loads them.

/** An organisation of the programme with how it is used, as `GET /programme/organisations` lists it. */
export interface OrganisationSummary {
  id: string;
  label: string;
  requiresAal2: boolean;
  /** False once deactivated: nobody is admitted to a data service through it. */
  active: boolean;
  /** With how many people hold each. */
  dataRoles: DataRole[];
  members: number;
  administrators: number;
  /** Invitations to join not yet answered, and new accounts whose invitation mail was not followed yet. */
  pendingInvitations: number;
  /** The latest sign-in of any member (ISO 8601), or null when nobody has signed in yet. */
  lastSignIn: string | null;
}

/** A data role of an organisation, with how many people hold it. */
export interface DataRole {
  id: string;
  label: string;
  holders: number;
}

/** What inviting an administrator did: a new account with its mail, an invitation to join, or a member made one. */
export type AdministratorOutcome = 'created' | 'invited' | 'added';

/** A person to invite as an organisation's administrator, as the new-user form names them. */
export interface NewAdministrator {
  email: string;
  first: string;
  last: string;
}

/** The query key of the organisations' list, which both pages of 'Programmabeheer' read. */
export const ORGANISATIONS_KEY = ['programme-organisations'];

/** Every organisation of the programme, in the catalogue's order. */
export const programmeOrganisations = (signal?: AbortSignal) =>
  usersApi<{ organisations: OrganisationSummary[] }>('/programme/organisations', { signal });

/** A new organisation without members or data roles; 409 `organisation_exists` when its code is taken. */
export const addOrganisation = (input: { id: string; label: string; requiresAal2: boolean }) =>
  usersApi<OrganisationSummary>('/programme/organisations', { method: 'POST', body: input });

/**
 * A new name or second-factor rule, or the organisation deactivated (`active: false`) or made active again: only what
 * changed is sent (the server refuses a change of nothing).
 */
export const changeOrganisation = (id: string, changes: { label?: string; requiresAal2?: boolean; active?: boolean }) =>
  usersApi<OrganisationSummary>(`/programme/organisations/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: changes,
  });

const dataRolesOf = (id: string) => `/programme/organisations/${encodeURIComponent(id)}/data-roles`;

/** A new data role of the organisation; 409 `data_role_exists` when its code is taken there. */
export const addDataRole = (id: string, role: { id: string; label: string }) =>
  usersApi<OrganisationSummary>(dataRolesOf(id), { method: 'POST', body: role });

/** A new name for a data role; its code stays. */
export const renameDataRole = (id: string, roleId: string, label: string) =>
  usersApi<OrganisationSummary>(`${dataRolesOf(id)}/${encodeURIComponent(roleId)}`, {
    method: 'PATCH',
    body: { label },
  });

/**
 * Retires a data role: out of the catalogue and every data service's access rule, and taken from everyone who holds
 * it. Answers how many people lost it.
 */
export const retireDataRole = async (id: string, roleId: string) =>
  (
    await usersApi<{ holders: number; organisation: OrganisationSummary }>(
      `${dataRolesOf(id)}/${encodeURIComponent(roleId)}`,
      { method: 'DELETE' },
    )
  ).holders;

/** Invites an administrator of the organisation: a new account gets a mail, an existing one an invitation. */
export const inviteAdministrator = async (id: string, person: NewAdministrator) =>
  (
    await usersApi<{ kind: AdministratorOutcome }>(
      `/programme/organisations/${encodeURIComponent(id)}/administrators`,
      {
        method: 'POST',
        body: { traits: { email: person.email, name: { first: person.first, last: person.last } } },
      },
    )
  ).kind;

/**
 * The field of a form that a refusal of the Users API is about, by its English reason (the machine's words, which the
 * server keeps stable) or error id; undefined for a refusal of the request as a whole.
 */
export function refusedField<Field extends string>(
  error: unknown,
  fields: Partial<Record<string, Field>>,
): Field | undefined {
  if (!(error instanceof UsersApiError)) return undefined;
  const answer = error.body?.error;
  return (answer?.id && fields[answer.id]) || (answer?.reason && fields[answer.reason]) || undefined;
}
