import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { adminIn, administrator, callerIn, signedIn } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { invitationParams, organisationParams, switchOrganisationBody } from '../http/validation.js';
import {
  acceptInvitation,
  declineInvitation,
  leaveOrganisation,
  resendInvitation,
  switchOrganisation,
  withdrawInvitation,
} from '../users/organisation-service.js';

const SWITCH = { body: switchOrganisationBody };
const LEAVE = { params: organisationParams };
const INVITATION = { params: invitationParams };

/**
 * A person's own organisations (docs/organisations.md): choosing the active one, leaving one, answering an
 * invitation; and an administrator sending again or withdrawing an invitation of their organisation. The rules are in
 * users/organisation-service.ts; each route declares its input, calls and answers.
 */
export function registerOrganisationRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.put('/users/active-organisation', { schema: SWITCH, preValidation: signedIn(ctx) }, async (request) => {
    const acting = { caller: callerIn(request), request };
    return switchOrganisation(ctx, acting, checked(request, SWITCH).body.organisation);
  });

  app.delete('/users/organisations/:orgId', { schema: LEAVE, preValidation: signedIn(ctx) }, async (request, reply) => {
    await leaveOrganisation(ctx, { caller: callerIn(request), request }, checked(request, LEAVE).params.orgId);
    return reply.code(204).send();
  });

  app.post('/invitations/:id/accept', { schema: INVITATION, preValidation: signedIn(ctx) }, async (request) => {
    return acceptInvitation(ctx, { caller: callerIn(request), request }, checked(request, INVITATION).params.id);
  });

  app.post('/invitations/:id/decline', { schema: INVITATION, preValidation: signedIn(ctx) }, async (request, reply) => {
    await declineInvitation(ctx, { caller: callerIn(request), request }, checked(request, INVITATION).params.id);
    return reply.code(204).send();
  });

  app.post(
    '/invitations/:id/resend',
    { schema: INVITATION, preValidation: administrator(ctx, 'invitation.resend') },
    async (request) => {
      return resendInvitation(ctx, { caller: adminIn(request), request }, checked(request, INVITATION).params.id);
    },
  );

  app.delete(
    '/invitations/:id',
    { schema: INVITATION, preValidation: administrator(ctx, 'invitation.withdraw') },
    async (request, reply) => {
      await withdrawInvitation(ctx, { caller: adminIn(request), request }, checked(request, INVITATION).params.id);
      return reply.code(204).send();
    },
  );
}
