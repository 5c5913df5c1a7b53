import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adminOf, auditAbout, callerOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { parse } from '../http/validation.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import { settledRecord } from '../users/home-organisation.js';
import { organisationIn } from '../users/caller.js';
import { removalWithin } from '../users/membership.js';
import { withinOrganisation } from '../users/user-json.js';
import { UUID } from '../users/user-id.js';

const switchSchema = z.object({ organisation: z.string().min(1).max(64) }).strict();

/**
 * A person's own organisations (docs/organisations.md): choosing the active one, leaving one, answering an
 * invitation; and an administrator withdrawing an invitation of their organisation.
 */
export function registerOrganisationRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { backend } = ctx;

  app.put('/users/active-organisation', async (request) => {
    const caller = await callerOf(ctx, request);
    const { organisation } = parse(switchSchema, request.body);
    const chosen = caller.organisations.find((o) => o.id === organisation);
    if (!chosen) throw errors.notInOrganisation();
    await backend.identities.setOrganisationRecord(caller.session.identity.id, { ...caller.record, active: chosen.id });
    const self = { id: caller.session.identity.id };
    const details = { from: caller.activeOrg?.id ?? null };
    await ctx.audit.record(auditAbout(caller, request, 'organisation.switch', self, 'success', details, chosen.id));
    return { activeOrg: { id: chosen.id, label: chosen.label } };
  });

  app.delete<{ Params: { orgId: string } }>('/users/organisations/:orgId', async (request, reply) => {
    const caller = await callerOf(ctx, request);
    const orgId = request.params.orgId;
    if (!caller.organisations.some((o) => o.id === orgId)) throw errors.notInOrganisation();
    if (orgId === caller.homeOrgId) throw errors.leavingHome();
    const self = caller.session.identity;
    await backend.relations.patch({ delete: removalWithin(caller.tuples, orgId) });
    const remaining = caller.tuples.filter((t) => !withinOrganisation(t, orgId));
    await backend.identities.setOrganisationRecord(self.id, settledRecord(caller.record, remaining));
    await ctx.audit.record(auditAbout(caller, request, 'organisation.leave', self, 'success', undefined, orgId));
    return reply.code(204).send();
  });

  const invitationOfCaller = async (id: string, identityId: string) => {
    await expireInvitations(ctx);
    const invitation = UUID.test(id) ? await ctx.invitations.get(id.toLowerCase()) : undefined;
    if (!invitation || invitation.identityId !== identityId) throw errors.invitationNotFound();
    return invitation;
  };

  // Accepting is the person's consent: only now are the tuples written, all in one patch.
  app.post<{ Params: { id: string } }>('/invitations/:id/accept', async (request) => {
    const caller = await callerOf(ctx, request);
    const self = caller.session.identity;
    const invitation = await invitationOfCaller(request.params.id, self.id);
    if (!(await ctx.invitations.remove(invitation.id))) throw errors.invitationNotFound();
    await backend.relations.patch({ insert: invitation.relations.map((t) => ({ ...t, subject_id: self.id })) });
    // The home is written now if it was only derived, so that the new membership cannot change it.
    await backend.identities.setOrganisationRecord(self.id, {
      ...caller.record,
      home: caller.record.home ?? invitation.organisationId,
      joined: { ...caller.record.joined, [invitation.organisationId]: new Date().toISOString() },
    });
    const details = { relations: invitation.relations.map((t) => `${t.namespace}:${t.object}#${t.relation}`) };
    await ctx.audit.record(
      auditAbout(caller, request, 'invitation.accept', self, 'success', details, invitation.organisationId),
    );
    const organisation = organisationIn(await ctx.catalogue.current(), invitation.organisationId);
    return { organisation: { id: organisation.id, label: organisation.label } };
  });

  app.post<{ Params: { id: string } }>('/invitations/:id/decline', async (request, reply) => {
    const caller = await callerOf(ctx, request);
    const self = caller.session.identity;
    const invitation = await invitationOfCaller(request.params.id, self.id);
    if (!(await ctx.invitations.remove(invitation.id))) throw errors.invitationNotFound();
    await ctx.audit.record(
      auditAbout(caller, request, 'invitation.decline', self, 'success', undefined, invitation.organisationId),
    );
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/invitations/:id', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'invitation.withdraw');
    const invitation = UUID.test(request.params.id) ? await ctx.invitations.get(request.params.id) : undefined;
    if (!invitation || invitation.organisationId !== caller.activeOrg.id) throw errors.invitationNotFound();
    if (!(await ctx.invitations.remove(invitation.id))) throw errors.invitationNotFound();
    const invited = { id: invitation.identityId, email: invitation.email };
    await ctx.audit.record(auditAbout(caller, request, 'invitation.withdraw', invited, 'success'));
    return reply.code(204).send();
  });
}
