import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { callerIn, programmeAdministrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import {
  administratorBody,
  newOrganisationBody,
  organisationChangesBody,
  programmeOrganisationParams,
} from '../http/validation.js';
import {
  addOrganisation,
  changeOrganisation,
  inviteAdministrator,
  organisationSummaries,
} from '../programme/programme-organisations.js';

const CREATE = { body: newOrganisationBody };
const CHANGE = { params: programmeOrganisationParams, body: organisationChangesBody };
const INVITE = { params: programmeOrganisationParams, body: administratorBody };

/**
 * 'Programmabeheer': the organisations of the programme, for programme administrators only (at aal2, refusals
 * audited): listed with their counts, added, renamed, their second-factor rule changed, and their first
 * administrator invited. What they do is in programme/programme-organisations.ts.
 */
export function registerProgrammeRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get(
    '/programme/organisations',
    { preValidation: programmeAdministrator(ctx, 'programme.organisation.list') },
    async () => ({ organisations: await organisationSummaries(ctx) }),
  );

  app.post(
    '/programme/organisations',
    { schema: CREATE, preValidation: programmeAdministrator(ctx, 'programme.organisation.create') },
    async (request, reply) => {
      const acting = { caller: callerIn(request), request };
      return reply.code(201).send(await addOrganisation(ctx, acting, checked(request, CREATE).body));
    },
  );

  app.patch(
    '/programme/organisations/:orgId',
    { schema: CHANGE, preValidation: programmeAdministrator(ctx, 'programme.organisation.update') },
    async (request) => {
      const { params, body } = checked(request, CHANGE);
      return changeOrganisation(ctx, { caller: callerIn(request), request }, params.orgId, body);
    },
  );

  app.post(
    '/programme/organisations/:orgId/administrators',
    { schema: INVITE, preValidation: programmeAdministrator(ctx, 'programme.administrator.invite') },
    async (request, reply) => {
      const { params, body } = checked(request, INVITE);
      const result = await inviteAdministrator(ctx, { caller: callerIn(request), request }, params.orgId, body.traits);
      return reply.code(result.kind === 'created' ? 201 : 200).send(result);
    },
  );
}
