import { twoFactorResetMail } from '@portaal/nl';
import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject } from '../catalogue/catalogue.js';
import { auditAbout, type RequestOrigin } from '../audit/audit-about.js';
import type { AdminCaller, ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import type { CreateUserInput, UpdateUserInput } from './user-input.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import type { Invitation, InvitedRelation } from '../invitations/invitation-store.js';
import { ConflictError, type UserIdentity } from '../ports.js';
import { MEMBERSHIP } from './caller.js';
import { membershipsOf, settledRecord } from './home-organisation.js';
import { memberTuples, permittedRelations, removalWithin, type RequestedPermission, tuplesFor } from './membership.js';
import { refuseGuest, targetOf } from './target.js';
import { invitedJson, memberJson, permissionsWithin, withinOrganisation } from './user-json.js';
import { factorKinds, RESET_CREDENTIALS } from './second-factor.js';
import { joinInvitationMail, newAccountMail, relationName, relationNames } from './invitation-mails.js';

/**
 * The administrators' rules on the people of their organisation (docs/organisations.md), apart from HTTP: the routes
 * parse a request, call one of these and answer what it returns. Each takes the Users API's context and who acts;
 * a refusal is thrown as one of the catalogue's errors (api-error.ts) before anything is written, with an audit
 * entry where the rule says so. A change and its audit entry are written in one `atomically`, so on the embedded
 * backend they commit together (docs/architecture.md#the-audit-log).
 */
export interface Acting {
  /** An administrator of their active organisation (`adminOf`). */
  caller: AdminCaller;
  /** Where the request came from, for the audit log. */
  request: RequestOrigin;
}

const isSelf = (acting: Acting, id: string) => id === acting.caller.session.identity.id;

/**
 * A member of the active organisation whose account itself is to change: only their home organisation may (409
 * `user_in_other_organisation` otherwise, audited as `action`). Anyone who is not a member is 404 `user_not_found`.
 */
async function homeMember(ctx: ApiContext, acting: Acting, id: string, action: string) {
  const target = await targetOf(ctx, acting.caller.activeOrg, id);
  if (!target.home) await refuseGuest(ctx, acting.caller, acting.request, action, target.user);
  return target;
}

/**
 * The members and invited people of the active organisation, optionally only those with one e-mail address. A fixed
 * number of reads whatever the organisation's size: the tuples of the organisation and of each of its data roles,
 * the pending invitations, and the people in one call of the identity port (bench/README.md#users-list).
 */
export async function listUsers(ctx: ApiContext, caller: AdminCaller, email?: string) {
  const { backend } = ctx;
  const org = caller.activeOrg;
  const objects = [
    { namespace: 'organizations', object: org.id },
    ...org.dataRoles.map((r) => ({ namespace: 'subdivisions', object: dataRoleObject(r.id, org.id) })),
  ];
  const [lists, invitations] = await Promise.all([
    Promise.all(objects.map((o) => backend.relations.list(o))),
    expireInvitations(ctx).then(() => ctx.invitations.ofOrganisation(org.id)),
  ]);
  const bySubject = new Map<string, RelationTuple[]>();
  for (const list of lists)
    for (const tuple of list) {
      if (!tuple.subject_id) continue;
      const own = bySubject.get(tuple.subject_id);
      if (own) own.push(tuple);
      else bySubject.set(tuple.subject_id, [tuple]);
    }
  const memberIds = [...bySubject]
    .filter(([, tuples]) => tuples.some((t) => t.namespace === 'organizations' && MEMBERSHIP.has(t.relation)))
    .map(([id]) => id);
  const invitationOf = new Map(
    invitations.filter((i) => !bySubject.has(i.identityId)).map((i): [string, Invitation] => [i.identityId, i]),
  );
  const [members, invited, lastSignIns] = await Promise.all([
    backend.identities.get(memberIds),
    backend.identities.get([...invitationOf.keys()]),
    ctx.lastSignIns.of(memberIds),
  ]);
  const shown = (user: UserIdentity) => email === undefined || user.traits.email === email;
  return [
    ...members
      .filter(shown)
      .map((user) => memberJson(user, bySubject.get(user.id) ?? [], org, lastSignIns.get(user.id) ?? null)),
    ...invited.filter(shown).flatMap((user) => {
      const invitation = invitationOf.get(user.id);
      return invitation ? [invitedJson(user, invitation, org)] : [];
    }),
  ];
}

/** The new-user form's existence check: throttled per administrator (429) and audited. */
export async function userExists(ctx: ApiContext, acting: Acting, email: string): Promise<boolean> {
  if (!(await ctx.limiter.allow(`users-api:exists:${acting.caller.session.identity.id}`, 120, 60_000)))
    throw errors.tooMany();
  const found = await ctx.backend.identities.findByEmail(email);
  const details = { exists: Boolean(found) };
  await ctx.audit.record(auditAbout(acting.caller, acting.request, 'user.exists', { email }, 'success', details));
  return Boolean(found);
}

/** The mail with a link to choose a password, for a new account or one whose invitation was never followed. */
async function invite(ctx: ApiContext, user: UserIdentity, orgLabel: string) {
  const { backend, options } = ctx;
  const url = await backend.identities.recoveryLink(user.id, options.invitationMs);
  await backend.mail.send(
    newAccountMail(ctx, { email: user.traits.email, firstName: user.traits.name.first }, url, orgLabel),
  );
}

/** An existing account that is not a member: a pending invitation and a mail; nothing in the tuples yet. */
async function inviteToJoin(ctx: ApiContext, acting: Acting, user: UserIdentity, relations: InvitedRelation[]) {
  const { caller } = acting;
  const org = caller.activeOrg;
  await ctx.mailThrottle.take(user.traits.email, org.id);
  const invitation = await ctx.invitations.replace({
    organisationId: org.id,
    identityId: user.id,
    email: user.traits.email,
    relations,
    invitedById: caller.session.identity.id,
    invitedByEmail: caller.session.identity.traits.email,
    expiresAt: new Date(Date.now() + ctx.options.invitationMs).toISOString(),
  });
  await mailJoinInvitation(ctx, acting, user, 'invitation.send', { relations: relationNames(relations) });
  return { id: invitation.id, expiresAt: invitation.expiresAt };
}

/** The mail of an invitation to join the active organisation, sent with its audit entry (`send` or `resend`). */
export async function mailJoinInvitation(
  ctx: ApiContext,
  acting: Acting,
  user: UserIdentity,
  action: 'invitation.send' | 'invitation.resend',
  details: Record<string, unknown>,
) {
  const { caller } = acting;
  await ctx.backend.atomically(async (ports) => {
    const to = { email: user.traits.email, firstName: user.traits.name.first };
    await ports.mail.send(joinInvitationMail(ctx, to, caller.activeOrg.label));
    await ports.audit.record(auditAbout(caller, acting.request, action, user, 'success', details));
  });
}

/**
 * What the new-user form did: a new account made (`created`), a member's data roles added at once (`added`), or
 * an existing account of someone else invited to join (`invited`, docs/organisations.md).
 */
export type CreateUserResult =
  | { kind: 'created' }
  | { kind: 'added' }
  | { kind: 'invited'; invitation: { id: string; expiresAt: string } };

/**
 * The new-user form. The tuples are built by the server from the catalogue: a permission outside the active
 * organisation refuses the whole request (403 `forbidden_permission`) before anything is written.
 */
export async function createUser(ctx: ApiContext, acting: Acting, input: CreateUserInput): Promise<CreateUserResult> {
  const { backend } = ctx;
  const { caller, request } = acting;
  const org = caller.activeOrg;
  const requested = [{ namespace: 'organizations', object: org.id, relation: 'issuer' }, ...input.permissions];
  const relations = permittedRelations(org, requested);
  const existing = await backend.identities.findByEmail(input.traits.email);
  if (existing) {
    const tuples = await backend.relations.list({ subject_id: existing.id });
    if (!membershipsOf(tuples).includes(org.id))
      return { kind: 'invited', invitation: await inviteToJoin(ctx, acting, existing, relations) };
    // An account whose invitation was never followed (address still unverified) gets a fresh one.
    const reinvite = !existing.verified && existing.state === 'active';
    // The mail limits are taken before anything is written, so that a refusal (429) changes nothing.
    if (reinvite) await ctx.mailThrottle.take(existing.traits.email, org.id);
    const added = tuplesFor(org, existing.id, requested);
    const details = { relations: relationNames(added) };
    await backend.atomically(async (ports) => {
      await ports.relations.patch({ insert: added });
      await ports.audit.record(auditAbout(caller, request, 'user.add_to_organisation', existing, 'success', details));
    });
    if (reinvite) await invite(ctx, existing, org.label);
    return { kind: 'added' };
  }
  const newName = input.traits.name;
  if (!newName) throw errors.invalidName();
  await ctx.mailThrottle.take(input.traits.email, org.id);
  let created: UserIdentity;
  const details = { relations: relationNames(relations) };
  try {
    created = await backend.atomically(async (ports) => {
      const record = { home: org.id, joined: { [org.id]: new Date().toISOString() } };
      const user = await ports.identities.create({ email: input.traits.email, name: newName }, record);
      try {
        await ports.relations.patch({ insert: tuplesFor(org, user.id, requested) });
      } catch (error) {
        if (backend.compensates) await ports.identities.delete(user.id);
        throw error;
      }
      await ports.audit.record(auditAbout(caller, request, 'user.create', user, 'success', details));
      return user;
    });
  } catch (error) {
    if (error instanceof ConflictError) throw errors.emailInUse();
    throw error;
  }
  // The invitation's recovery link writes on its own (ports.ts), so it follows the committed account.
  await invite(ctx, created, org.label);
  return { kind: 'created' };
}

/**
 * Names, e-mail address, block and unblock: the home organisation only, and never blocking oneself (403
 * `forbidden_self`). A request that changes nothing passes, from any organisation. Answers the member as shown.
 */
export async function updateUser(ctx: ApiContext, acting: Acting, id: string, input: UpdateUserInput) {
  const { caller, request } = acting;
  const org = caller.activeOrg;
  const { user: current, tuples, home } = await targetOf(ctx, org, id);
  const blocking = input.state === 'inactive' && current.state !== 'inactive';
  const emailChange = input.traits !== undefined && input.traits.email !== current.traits.email;
  const nameChange =
    input.traits?.name !== undefined &&
    (input.traits.name.first !== current.traits.name.first || input.traits.name.last !== current.traits.name.last);
  const stateChange = input.state !== undefined && input.state !== current.state;
  const lastSignInAt = async () => (await ctx.lastSignIns.of([id])).get(id) ?? null;
  if (!(emailChange || nameChange || stateChange)) return memberJson(current, tuples, org, await lastSignInAt());
  if (!home) await refuseGuest(ctx, caller, request, 'user.update', current);
  if (blocking && isSelf(acting, id)) throw errors.selfChange();
  // An address of another account is refused before anything is written; the identity provider refuses it again
  // in the write itself, should another request take the address in between.
  if (emailChange && input.traits) {
    const owner = await ctx.backend.identities.findByEmail(input.traits.email);
    if (owner && owner.id !== id) throw errors.emailInUse();
  }
  const action = blocking
    ? 'user.block'
    : input.state === 'active' && current.state === 'inactive'
      ? 'user.unblock'
      : 'user.update';
  let updated: UserIdentity;
  try {
    updated = await ctx.backend.atomically(async (ports) => {
      const user = await ports.identities.update(id, { traits: input.traits, state: input.state });
      await ports.audit.record(auditAbout(caller, request, action, user, 'success'));
      return user;
    });
  } catch (error) {
    if (error instanceof ConflictError) throw errors.emailInUse();
    throw error;
  }
  return memberJson(updated, tuples, org, await lastSignInAt());
}

/**
 * Removes a member from the active organisation; never oneself (403 `forbidden_self`). Only the last organisation
 * deletes the account itself; otherwise the person leaves this organisation and, when it was their home, the oldest
 * remaining membership becomes home.
 */
export async function deleteUser(ctx: ApiContext, acting: Acting, id: string): Promise<void> {
  const { backend } = ctx;
  const { caller, request } = acting;
  const org = caller.activeOrg;
  if (isSelf(acting, id)) throw errors.selfChange();
  const { user: target, tuples } = await targetOf(ctx, org, id);
  const remaining = tuples.filter((t) => !withinOrganisation(t, org.id));
  const deletesIdentity = membershipsOf(remaining).length === 0;
  const record = deletesIdentity ? undefined : settledRecord(target.organisationRecord, remaining);
  const action = deletesIdentity ? 'user.delete' : 'user.remove_from_organisation';
  const details = record ? { home: record.home ?? null } : undefined;
  await backend.atomically(async (ports) => {
    await ports.relations.patch({
      delete: deletesIdentity
        ? [
            { subject_id: id, namespace: 'organizations' },
            { subject_id: id, namespace: 'subdivisions' },
          ]
        : removalWithin(tuples, org.id),
    });
    if (deletesIdentity) await ports.identities.delete(id);
    if (record) await ports.identities.setOrganisationRecord(id, record);
    await ports.audit.record(auditAbout(caller, request, action, target, 'success', details));
  });
  // Pending invitations and the last sign-in of a deleted account are the Users API's own rows, outside the ports.
  if (deletesIdentity) {
    await ctx.invitations.removeOfIdentity(id);
    await ctx.lastSignIns.forget(id);
  }
}

/**
 * Removes the authenticator app, backup codes and security keys (passkeys stay: they are a way to sign in, which the
 * admin API does not remove), ends every session and tells the person: home organisation only.
 */
export async function resetSecondFactor(ctx: ApiContext, acting: Acting, id: string): Promise<void> {
  const { user: target } = await homeMember(ctx, acting, id, 'user.reset_2fa');
  await ctx.mailThrottle.take(target.traits.email, acting.caller.activeOrg.id);
  const removed = factorKinds(
    target.credentials.filter((type) => (RESET_CREDENTIALS as readonly string[]).includes(type)),
  );
  await ctx.backend.atomically(async (ports) => {
    await ports.identities.removeSecondFactors(id);
    await ports.identities.revokeSessions(id);
    await ports.mail.send({
      to: target.traits.email,
      ...twoFactorResetMail({ firstName: target.traits.name.first }),
      templateType: 'two_factor_reset',
    });
    await ports.audit.record(
      auditAbout(acting.caller, acting.request, 'user.reset_2fa', target, 'success', { removed }),
    );
  });
}

/** Ends every session of a member ('Afmelden op alle apparaten'): home organisation only. */
export async function endSessions(ctx: ApiContext, acting: Acting, id: string): Promise<void> {
  const { user } = await homeMember(ctx, acting, id, 'user.end_sessions');
  await ctx.backend.atomically(async (ports) => {
    await ports.identities.revokeSessions(user.id);
    await ports.audit.record(auditAbout(acting.caller, acting.request, 'user.end_sessions', user, 'success'));
  });
}

/**
 * Lifts the lock after too many failed sign-ins ('Ontgrendelen'): home organisation only; 409 `unlock_unavailable`
 * where the identity provider has no such lock (Ory Kratos).
 */
export async function unlockUser(ctx: ApiContext, acting: Acting, id: string): Promise<void> {
  const { user } = await homeMember(ctx, acting, id, 'user.unlock');
  // The failure throttle writes on its own (ports.ts), so the entry follows the unlock.
  if (!(await ctx.backend.identities.unlock(user.id))) throw errors.noLocks();
  const details = { wasLockedUntil: user.lockedUntil ?? null };
  await ctx.audit.record(auditAbout(acting.caller, acting.request, 'user.unlock', user, 'success', details));
}

/**
 * Adds data roles or the administrator relation to a member of the active organisation; anything outside it refuses
 * the whole request (403 `forbidden_permission`). Answers the member's permissions within the organisation.
 */
export async function addPermissions(
  ctx: ApiContext,
  acting: Acting,
  userId: string,
  requested: RequestedPermission[],
) {
  const { backend } = ctx;
  const org = acting.caller.activeOrg;
  await memberTuples(backend.relations, org, userId);
  const tuples = tuplesFor(org, userId, requested);
  const details = { relations: relationNames(tuples) };
  await backend.atomically(async (ports) => {
    await ports.relations.patch({ insert: tuples });
    await ports.audit.record(
      auditAbout(acting.caller, acting.request, 'permissions.add', { id: userId }, 'success', details),
    );
  });
  return permissionsWithin(await backend.relations.list({ subject_id: userId }), org);
}

/**
 * Removes one data role or the administrator relation of a member: only within the active organisation (403
 * `forbidden_permission`), never a membership (that is `deleteUser`), and never one's own administrator relation
 * (403 `forbidden_self`).
 */
export async function removePermission(
  ctx: ApiContext,
  acting: Acting,
  tuple: InvitedRelation & { subject_id: string },
) {
  const org = acting.caller.activeOrg;
  if (!withinOrganisation(tuple, org.id)) throw errors.forbiddenTuple();
  if (tuple.namespace === 'organizations' && MEMBERSHIP.has(tuple.relation)) {
    throw errors.invalid(
      'Remove a member with DELETE /users.',
      'Een gebruiker haal je uit je organisatie met Verwijderen.',
    );
  }
  if (tuple.namespace === 'organizations' && tuple.relation === 'admin' && isSelf(acting, tuple.subject_id))
    throw errors.selfChange();
  await memberTuples(ctx.backend.relations, org, tuple.subject_id);
  const details = { relation: relationName(tuple) };
  const target = { id: tuple.subject_id };
  await ctx.backend.atomically(async (ports) => {
    await ports.relations.patch({ delete: [tuple] });
    await ports.audit.record(
      auditAbout(acting.caller, acting.request, 'permissions.remove', target, 'success', details),
    );
  });
}
