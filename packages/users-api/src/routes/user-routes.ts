import type { FastifyInstance } from 'fastify';
import { invitationMail, organisationInvitationMail, twoFactorResetMail } from '@portaal/nl';
import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject } from '../catalogue/catalogue.js';
import { actorOf, adminOf, type AdminCaller, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { createUserSchema, emailSchema, parse, updateUserSchema } from '../http/validation.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import type { InvitedRelation } from '../invitations/invitation-store.js';
import { ConflictError, type UserIdentity } from '../ports.js';
import { MEMBERSHIP } from '../users/caller.js';
import { membershipsOf, settledRecord } from '../users/home-organisation.js';
import { permittedRelations, removalWithin, tuplesFor } from '../users/membership.js';
import { refuseGuest, targetOf } from '../users/target.js';
import { idParam } from '../users/user-id.js';
import { invitedJson, memberJson, withinOrganisation } from '../users/user-json.js';

/** The administrators' user calls: list, existence check, create, update, delete, reset 2FA. */
export function registerUserRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { backend, options } = ctx;

  async function invite(user: UserIdentity, orgLabel: string) {
    const url = await backend.identities.recoveryLink(user.id, options.invitationMs);
    await backend.mail.send({
      to: user.traits.email,
      ...invitationMail({
        url,
        validHours: Math.round(options.invitationMs / 3_600_000),
        organisationLabel: orgLabel,
        firstName: user.traits.name.first,
      }),
      templateType: 'invitation',
    });
  }

  /** An existing account that is not a member: a pending invitation and a mail; nothing in the tuples yet. */
  async function inviteToJoin(
    caller: AdminCaller,
    user: UserIdentity,
    relations: InvitedRelation[],
    request: Parameters<typeof actorOf>[1],
  ) {
    const org = caller.activeOrg;
    const invitation = await ctx.invitations.replace({
      organisationId: org.id,
      identityId: user.id,
      email: user.traits.email,
      relations,
      invitedById: caller.session.identity.id,
      invitedByEmail: caller.session.identity.traits.email,
      expiresAt: new Date(Date.now() + options.invitationMs).toISOString(),
    });
    await backend.mail.send({
      to: user.traits.email,
      ...organisationInvitationMail({
        url: new URL('/settings#organisaties', options.publicUrl).toString(),
        validHours: Math.round(options.invitationMs / 3_600_000),
        organisationLabel: org.label,
        firstName: user.traits.name.first,
      }),
      templateType: 'organisation_invitation',
    });
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'invitation.send',
      objectId: user.id,
      objectEmail: user.traits.email,
      result: 'success',
      details: { relations: relations.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
    });
    return { invitation: { id: invitation.id, expiresAt: invitation.expiresAt } };
  }

  // HEAD /users is the existence check below, not Fastify's automatic HEAD of this GET.
  app.get('/users', { exposeHeadRoute: false }, async (request) => {
    const caller = await adminOf(ctx, request, 'user.list');
    const org = caller.activeOrg;
    const query = request.query as Record<string, unknown>;
    const objects = [
      { namespace: 'organizations', object: org.id },
      ...org.dataRoles.map((r) => ({ namespace: 'subdivisions', object: dataRoleObject(r.id, org.id) })),
    ];
    const lists = await Promise.all(objects.map((o) => backend.relations.list(o)));
    const bySubject = new Map<string, RelationTuple[]>();
    for (const tuple of lists.flat()) {
      if (!tuple.subject_id) continue;
      const own = bySubject.get(tuple.subject_id) ?? [];
      own.push(tuple);
      bySubject.set(tuple.subject_id, own);
    }
    const memberIds = [...bySubject]
      .filter(([, tuples]) => tuples.some((t) => t.namespace === 'organizations' && MEMBERSHIP.has(t.relation)))
      .map(([id]) => id);
    await expireInvitations(ctx);
    const invitations = (await ctx.invitations.ofOrganisation(org.id)).filter((i) => !bySubject.has(i.identityId));
    const [members, invited] = await Promise.all([
      backend.identities.get(memberIds),
      backend.identities.get(invitations.map((i) => i.identityId)),
    ]);
    const wanted = typeof query.email === 'string' ? query.email.trim().toLowerCase() : undefined;
    const shown = (user: UserIdentity) => wanted === undefined || user.traits.email === wanted;
    return [
      ...members.filter(shown).map((user) => memberJson(user, bySubject.get(user.id) ?? [], org)),
      ...invited.filter(shown).flatMap((user) => {
        const invitation = invitations.find((i) => i.identityId === user.id);
        return invitation ? [invitedJson(user, invitation, org)] : [];
      }),
    ];
  });

  // The new-user form's existence check: open to administrators by design, so throttled and audited.
  app.head('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.exists');
    const query = request.query as Record<string, unknown>;
    if (Object.keys(query).some((key) => key !== 'email'))
      throw errors.invalid('Only the email field can be checked.', 'Alleen een e-mailadres kan worden gecontroleerd.');
    const email = emailSchema.safeParse(query.email);
    if (!email.success)
      throw errors.invalid(
        'The e-mail address is not valid.',
        'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
      );
    if (!(await ctx.limiter.allow(`users-api:exists:${caller.session.identity.id}`, 120, 60_000)))
      throw errors.tooMany();
    const found = await backend.identities.findByEmail(email.data);
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'user.exists',
      objectEmail: email.data,
      result: 'success',
      details: { exists: Boolean(found) },
    });
    return reply.code(found ? 200 : 404).send();
  });

  app.post('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.create');
    const org = caller.activeOrg;
    const body = parse(createUserSchema, request.body);
    const requested = [{ namespace: 'organizations', object: org.id, relation: 'issuer' }, ...body.permissions];
    const relations = permittedRelations(org, requested); // refuses before anything is written
    const existing = await backend.identities.findByEmail(body.traits.email);
    if (existing) {
      const tuples = await backend.relations.list({ subject_id: existing.id });
      if (!membershipsOf(tuples).includes(org.id))
        return reply.code(202).send(await inviteToJoin(caller, existing, relations, request));
      const added = tuplesFor(org, existing.id, requested);
      await backend.relations.patch({ insert: added });
      // An account whose invitation was never followed (address still unverified) gets a fresh one.
      if (!existing.verified && existing.state === 'active') await invite(existing, org.label);
      await ctx.audit.record({
        ...actorOf(caller, request),
        action: 'user.add_to_organisation',
        objectId: existing.id,
        objectEmail: existing.traits.email,
        result: 'success',
        details: { relations: added.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
      });
      return reply.code(200).send(true);
    }
    const newName = body.traits.name;
    if (!newName) throw errors.invalidName();
    let created: UserIdentity;
    try {
      created = await backend.atomically(async (ports) => {
        const record = { home: org.id, joined: { [org.id]: new Date().toISOString() } };
        const user = await ports.identities.create({ email: body.traits.email, name: newName }, record);
        try {
          await ports.relations.patch({ insert: tuplesFor(org, user.id, requested) });
        } catch (error) {
          if (backend.compensates) await ports.identities.delete(user.id);
          throw error;
        }
        return user;
      });
    } catch (error) {
      if (error instanceof ConflictError) throw errors.emailInUse();
      throw error;
    }
    await invite(created, org.label);
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'user.create',
      objectId: created.id,
      objectEmail: created.traits.email,
      result: 'success',
      details: { relations: relations.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
    });
    return reply.code(201).send(true);
  });

  app.put<{ Params: { id: string } }>('/users/:id', async (request) => {
    const caller = await adminOf(ctx, request, 'user.update');
    const org = caller.activeOrg;
    const id = idParam(request.params.id);
    const body = parse(updateUserSchema, request.body);
    const { user: current, tuples, home } = await targetOf(ctx, org, id);
    const blocking = body.state === 'inactive' && current.state !== 'inactive';
    const emailChange = body.traits !== undefined && body.traits.email !== current.traits.email;
    const nameChange =
      body.traits?.name !== undefined &&
      (body.traits.name.first !== current.traits.name.first || body.traits.name.last !== current.traits.name.last);
    const stateChange = body.state !== undefined && body.state !== current.state;
    if (!(emailChange || nameChange || stateChange)) return memberJson(current, tuples, org);
    if (!home) await refuseGuest(ctx, caller, request, 'user.update', current);
    if (blocking && id === caller.session.identity.id) throw errors.selfChange();
    let updated: UserIdentity;
    try {
      updated = await backend.identities.update(id, { traits: body.traits, state: body.state });
    } catch (error) {
      if (error instanceof ConflictError) throw errors.emailInUse();
      throw error;
    }
    const action = blocking
      ? 'user.block'
      : body.state === 'active' && current.state === 'inactive'
        ? 'user.unblock'
        : 'user.update';
    await ctx.audit.record({
      ...actorOf(caller, request),
      action,
      objectId: id,
      objectEmail: updated.traits.email,
      result: 'success',
    });
    return memberJson(updated, tuples, org);
  });

  app.delete('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.delete');
    const org = caller.activeOrg;
    const id = idParam((request.query as Record<string, unknown>).id);
    if (id === caller.session.identity.id) throw errors.selfChange();
    const { user: target, tuples } = await targetOf(ctx, org, id);
    const remaining = tuples.filter((t) => !withinOrganisation(t, org.id));
    // Only the last organisation deletes the account itself; otherwise the person leaves this organisation and,
    // when it was their home, the oldest remaining membership becomes home.
    const deletesIdentity = membershipsOf(remaining).length === 0;
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
    });
    if (deletesIdentity) await ctx.invitations.removeOfIdentity(id);
    const record = deletesIdentity ? undefined : settledRecord(target.organisationRecord, remaining);
    if (record) await backend.identities.setOrganisationRecord(id, record);
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: deletesIdentity ? 'user.delete' : 'user.remove_from_organisation',
      objectId: id,
      objectEmail: target.traits.email,
      result: 'success',
      ...(record ? { details: { home: record.home ?? null } } : {}),
    });
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/users/:id/totp', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.reset_2fa');
    const org = caller.activeOrg;
    const id = idParam(request.params.id);
    const { user: target, home } = await targetOf(ctx, org, id);
    if (!home) await refuseGuest(ctx, caller, request, 'user.reset_2fa', target);
    await backend.atomically(async (ports) => {
      await ports.identities.removeSecondFactors(id);
      await ports.identities.revokeSessions(id);
      await ports.mail.send({
        to: target.traits.email,
        ...twoFactorResetMail({ firstName: target.traits.name.first }),
        templateType: 'two_factor_reset',
      });
    });
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'user.reset_2fa',
      objectId: id,
      objectEmail: target.traits.email,
      result: 'success',
    });
    return reply.code(204).send();
  });
}
