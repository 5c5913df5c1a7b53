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
  dataRoles: { id: string; label: string; holders: number }[];
  members: number;
  administrators: number;
  /** Invitations to join not yet answered, and new accounts whose invitation mail was not followed yet. */
  pendingInvitations: number;
  /** The latest sign-in of any member (ISO 8601), or null when nobody has signed in yet. */
  lastSignIn: string | null;
}

/** What inviting an administrator did: a new account with its mail, an invitation to join, or a member made one. */
export type AdministratorOutcome = 'created' | 'invited' | 'added';

/** A person to invite as an organisation's administrator, as the new-user form names them. */
export interface NewAdministrator {
  email: string;
  first: string;
  last: string;
}

/** Every organisation of the programme, in the catalogue's order. */
export const programmeOrganisations = (signal?: AbortSignal) =>
  usersApi<{ organisations: OrganisationSummary[] }>('/programme/organisations', { signal });

/** A new organisation without members or data roles; 409 `organisation_exists` when its code is taken. */
export const addOrganisation = (input: { id: string; label: string; requiresAal2: boolean }) =>
  usersApi<OrganisationSummary>('/programme/organisations', { method: 'POST', body: input });

/** A new name or second-factor rule: only what changed is sent (the server refuses a change of nothing). */
export const changeOrganisation = (id: string, changes: { label?: string; requiresAal2?: boolean }) =>
  usersApi<OrganisationSummary>(`/programme/organisations/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: changes,
  });

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
