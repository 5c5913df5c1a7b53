import { auditAbout, type RequestOrigin } from '../audit/audit-about.js';
import type { ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import type { Invitation, InvitedRelation } from '../invitations/invitation-store.js';
import { dataRoleObject, type Catalogue } from '../catalogue/catalogue.js';
import { type Caller, organisationIn } from './caller.js';
import { settledRecord } from './home-organisation.js';
import { removalWithin } from './membership.js';
import { type Acting, mailJoinInvitation } from './user-service.js';
import { withinOrganisation } from './user-json.js';

/**
 * A person's own organisations (docs/organisations.md), apart from HTTP: choosing the active one, leaving one,
 * answering an invitation; and an administrator sending again or withdrawing an invitation of their organisation. The
 * routes parse a request, call one of these and answer what it returns; a refusal is thrown as one of the catalogue's
 * errors (api-error.ts) before anything is written.
 */
export interface PersonActing {
  /** A person with a live session (`callerOf`), acting on their own account. */
  caller: Caller;
  /** Where the request came from, for the audit log. */
  request: RequestOrigin;
}

/** Chooses the organisation the person works in; 404 `not_member` for one they are not a member of. */
export async function switchOrganisation(ctx: ApiContext, acting: PersonActing, organisationId: string) {
  const { caller, request } = acting;
  const chosen = caller.organisations.find((o) => o.id === organisationId);
  if (!chosen) throw errors.notInOrganisation();
  const self = caller.session.identity;
  const details = { from: caller.activeOrg?.id ?? null };
  await ctx.backend.atomically(async (ports) => {
    await ports.identities.setOrganisationRecord(self.id, { ...caller.record, active: chosen.id });
    await ports.audit.record(auditAbout(caller, request, 'organisation.switch', self, 'success', details, chosen.id));
  });
  return { activeOrg: { id: chosen.id, label: chosen.label } };
}

/**
 * Leaves an organisation: its tuples removed, the record settled (the home organisation becomes active when this
 * one was). 404 `not_member` for one they are not in, 409 `home_organisation` for their home.
 */
export async function leaveOrganisation(ctx: ApiContext, acting: PersonActing, organisationId: string): Promise<void> {
  const { caller, request } = acting;
  if (!caller.organisations.some((o) => o.id === organisationId)) throw errors.notInOrganisation();
  if (organisationId === caller.homeOrgId) throw errors.leavingHome();
  const self = caller.session.identity;
  const remaining = caller.tuples.filter((t) => !withinOrganisation(t, organisationId));
  await ctx.backend.atomically(async (ports) => {
    await ports.relations.patch({ delete: removalWithin(caller.tuples, organisationId) });
    await ports.identities.setOrganisationRecord(self.id, settledRecord(caller.record, remaining));
    await ports.audit.record(
      auditAbout(caller, request, 'organisation.leave', self, 'success', undefined, organisationId),
    );
  });
}

/**
 * One of the person's own pending invitations, claimed: removed, so that it is answered once. 404
 * `invitation_not_found` for an unknown, expired or someone else's invitation, or one answered at the same time.
 */
async function claimOwnInvitation(ctx: ApiContext, caller: Caller, id: string): Promise<Invitation> {
  await expireInvitations(ctx);
  const invitation = await ctx.invitations.get(id);
  if (!invitation || invitation.identityId !== caller.session.identity.id) throw errors.invitationNotFound();
  if (!(await ctx.invitations.remove(invitation.id))) throw errors.invitationNotFound();
  return invitation;
}

/** An invitation's relations but for data roles retired since it was sent ('Programmabeheer'). */
const stillOffered = (catalogue: Catalogue, relations: InvitedRelation[]) =>
  relations.filter(
    (t) =>
      t.namespace !== 'subdivisions' ||
      catalogue.organisations.some((org) => org.dataRoles.some((role) => dataRoleObject(role.id, org.id) === t.object)),
  );

/**
 * Accepting is the person's consent: only now are the invited tuples written, all in one patch. The inviting
 * organisation becomes home when the person had none recorded. Answers the organisation joined.
 */
export async function acceptInvitation(ctx: ApiContext, acting: PersonActing, id: string) {
  const { caller, request } = acting;
  const self = caller.session.identity;
  const invitation = await claimOwnInvitation(ctx, caller, id);
  const orgId = invitation.organisationId;
  const relations = stillOffered(await ctx.catalogue.current(), invitation.relations);
  const details = { relations: relations.map((t) => `${t.namespace}:${t.object}#${t.relation}`) };
  await ctx.backend.atomically(async (ports) => {
    await ports.relations.patch({ insert: relations.map((t) => ({ ...t, subject_id: self.id })) });
    // The home is written now if it was only derived, so that the new membership cannot change it.
    await ports.identities.setOrganisationRecord(self.id, {
      ...caller.record,
      home: caller.record.home ?? orgId,
      joined: { ...caller.record.joined, [orgId]: new Date().toISOString() },
    });
    await ports.audit.record(auditAbout(caller, request, 'invitation.accept', self, 'success', details, orgId));
  });
  const organisation = organisationIn(await ctx.catalogue.current(), orgId);
  return { organisation: { id: organisation.id, label: organisation.label } };
}

/** Declines one of the person's invitations: nothing is written but the audit entry. */
export async function declineInvitation(ctx: ApiContext, acting: PersonActing, id: string): Promise<void> {
  const { caller, request } = acting;
  const invitation = await claimOwnInvitation(ctx, caller, id);
  const self = caller.session.identity;
  await ctx.audit.record(
    auditAbout(caller, request, 'invitation.decline', self, 'success', undefined, invitation.organisationId),
  );
}

/** An administrator withdraws an invitation of their active organisation; 404 `invitation_not_found` otherwise. */
export async function withdrawInvitation(ctx: ApiContext, acting: Acting, id: string): Promise<void> {
  const invitation = await ctx.invitations.get(id);
  if (!invitation || invitation.organisationId !== acting.caller.activeOrg.id) throw errors.invitationNotFound();
  if (!(await ctx.invitations.remove(invitation.id))) throw errors.invitationNotFound();
  const invited = { id: invitation.identityId, email: invitation.email };
  await ctx.audit.record(auditAbout(acting.caller, acting.request, 'invitation.withdraw', invited, 'success'));
}

/**
 * An administrator sends an invitation of their active organisation again: a new mail, and valid for the whole period
 * from now (docs/organisations.md). 404 `invitation_not_found` for an unknown or another organisation's invitation,
 * one answered or withdrawn meanwhile, or one whose account is gone; 429 when the mail limits are used up. Either
 * refusal comes before anything is written.
 */
export async function resendInvitation(ctx: ApiContext, acting: Acting, id: string) {
  const { caller } = acting;
  const invitation = await ctx.invitations.get(id);
  if (!invitation || invitation.organisationId !== caller.activeOrg.id) throw errors.invitationNotFound();
  const [user] = await ctx.backend.identities.get([invitation.identityId]);
  if (!user) throw errors.invitationNotFound();
  await ctx.mailThrottle.take(user.traits.email, invitation.organisationId);
  const expiresAt = new Date(Date.now() + ctx.options.invitationMs).toISOString();
  const self = caller.session.identity;
  if (!(await ctx.invitations.renew(id, expiresAt, { id: self.id, email: self.traits.email })))
    throw errors.invitationNotFound();
  await mailJoinInvitation(ctx, acting, user, 'invitation.resend', { expires_at: expiresAt });
  return { id, expiresAt };
}
