import type { FastifyInstance } from 'fastify';
import { invitationMail, twoFactorResetMail } from '@portaal/nl';
import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject } from '../catalogue/catalogue.js';
import { actorOf, adminOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { createUserSchema, emailSchema, parse, updateUserSchema } from '../http/validation.js';
import { ConflictError, type UserIdentity } from '../ports.js';
import { MEMBERSHIP } from '../users/caller.js';
import { belongsElsewhere, memberTuples, removalWithin, tuplesFor } from '../users/membership.js';
import { userJson } from '../users/user-json.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idParam = (value: unknown): string => {
  if (typeof value !== 'string' || !UUID.test(value)) throw errors.notMember();
  return value.toLowerCase();
};

/** The administrators' user calls of spec §7: list, existence check, create, update, delete, reset 2FA. */
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
    let users = await backend.identities.get(memberIds);
    if (typeof query.email === 'string') {
      const wanted = query.email.trim().toLowerCase();
      users = users.filter((u) => u.traits.email === wanted);
    }
    return users.map((user) => userJson(user, bySubject.get(user.id) ?? [], org));
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
    const existing = await backend.identities.findByEmail(body.traits.email);
    if (existing) {
      const tuples = tuplesFor(org, existing.id, [
        { namespace: 'organizations', object: org.id, relation: 'issuer' },
        ...body.permissions,
      ]);
      await backend.relations.patch({ insert: tuples });
      // An account whose invitation was never followed (address still unverified) gets a fresh one.
      if (!existing.verified && existing.state === 'active') await invite(existing, org.label);
      await ctx.audit.record({
        ...actorOf(caller, request),
        action: 'user.add_to_organisation',
        objectId: existing.id,
        objectEmail: existing.traits.email,
        result: 'success',
        details: { relations: tuples.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
      });
      return reply.code(200).send(true);
    }
    const newName = body.traits.name;
    if (!newName) throw errors.invalidName();
    const requested = [{ namespace: 'organizations', object: org.id, relation: 'issuer' }, ...body.permissions];
    tuplesFor(org, '00000000-0000-0000-0000-000000000000', requested); // refuse before anything is written
    let created: UserIdentity;
    try {
      created = await backend.atomically(async (ports) => {
        const user = await ports.identities.create({ email: body.traits.email, name: newName });
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
      details: { relations: requested.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
    });
    return reply.code(201).send(true);
  });

  app.put<{ Params: { id: string } }>('/users/:id', async (request) => {
    const caller = await adminOf(ctx, request, 'user.update');
    const org = caller.activeOrg;
    const id = idParam(request.params.id);
    const body = parse(updateUserSchema, request.body);
    const tuples = await memberTuples(backend.relations, org, id);
    const [current] = await backend.identities.get([id]);
    if (!current) throw errors.notMember();
    const blocking = body.state === 'inactive' && current.state !== 'inactive';
    const emailChange = body.traits !== undefined && body.traits.email !== current.traits.email;
    if (blocking && id === caller.session.identity.id) throw errors.selfChange();
    if ((blocking || emailChange) && belongsElsewhere(tuples, org.id)) throw errors.sharedUser();
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
    return userJson(updated, tuples, org);
  });

  app.delete('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.delete');
    const org = caller.activeOrg;
    const id = idParam((request.query as Record<string, unknown>).id);
    if (id === caller.session.identity.id) throw errors.selfChange();
    const tuples = await memberTuples(backend.relations, org, id);
    const [target] = await backend.identities.get([id]);
    const deletesIdentity = !belongsElsewhere(tuples, org.id);
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
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: deletesIdentity ? 'user.delete' : 'user.remove_from_organisation',
      objectId: id,
      objectEmail: target?.traits.email ?? null,
      result: 'success',
    });
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/users/:id/totp', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.reset_2fa');
    const org = caller.activeOrg;
    const id = idParam(request.params.id);
    const tuples = await memberTuples(backend.relations, org, id);
    if (belongsElsewhere(tuples, org.id)) throw errors.sharedUser();
    const [target] = await backend.identities.get([id]);
    if (!target) throw errors.notMember();
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
