import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { callerIn, programmeAdministrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import {
  administratorBody,
  dataRoleChangesBody,
  dataRoleParams,
  newDataRoleBody,
  newOrganisationBody,
  organisationChangesBody,
  programmeAdminBody,
  programmeAdminParams,
  programmeOrganisationParams,
  rotationBody,
  serviceBody,
  serviceParams,
} from '../http/validation.js';
import { errors } from '../api-error.js';
import { invalidService } from '../programme/service-refusal.js';
import { listServices, removeService, rotateClientSecret, saveService } from '../programme/programme-services.js';
import {
  addOrganisation,
  changeOrganisation,
  inviteAdministrator,
  organisationSummaries,
  summaryOf,
} from '../programme/programme-organisations.js';
import { addDataRole, renameDataRole, retireDataRole } from '../programme/programme-data-roles.js';
import { changeProgrammeRole, programmeAdministrators } from '../programme/programme-administrators.js';
import { auditAbout } from '../audit/audit-about.js';

const CREATE = { body: newOrganisationBody };
const CHANGE = { params: programmeOrganisationParams, body: organisationChangesBody };
const INVITE = { params: programmeOrganisationParams, body: administratorBody };
const ADD_ROLE = { params: programmeOrganisationParams, body: newDataRoleBody };
const RENAME_ROLE = { params: dataRoleParams, body: dataRoleChangesBody };
const ROLE = { params: dataRoleParams };
const NEW_SERVICE = { body: serviceBody };
const SERVICE = { params: serviceParams, body: serviceBody };
const ROTATE = { params: serviceParams, body: rotationBody };
const ONE_SERVICE = { params: serviceParams };
const GRANT = { body: programmeAdminBody };
const WITHDRAW = { params: programmeAdminParams };

/**
 * 'Programmabeheer', for programme administrators only (at aal2, refusals audited): the organisations (listed with
 * their counts, added, renamed, their rule changed, deactivated, their first administrator invited), their data
 * roles, the data services with their client secrets, and who holds the role itself. What each does is in
 * programme/ (programme-organisations.ts, -data-roles.ts, -services.ts, -administrators.ts).
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
    '/programme/organisations/:orgId/data-roles',
    { schema: ADD_ROLE, preValidation: programmeAdministrator(ctx, 'programme.data_role.add') },
    async (request, reply) => {
      const { params, body } = checked(request, ADD_ROLE);
      await addDataRole(ctx, { caller: callerIn(request), request }, params.orgId, body);
      return reply.code(201).send(await summaryOf(ctx, params.orgId));
    },
  );

  app.patch(
    '/programme/organisations/:orgId/data-roles/:roleId',
    { schema: RENAME_ROLE, preValidation: programmeAdministrator(ctx, 'programme.data_role.rename') },
    async (request) => {
      const { params, body } = checked(request, RENAME_ROLE);
      await renameDataRole(ctx, { caller: callerIn(request), request }, params.orgId, params.roleId, body.label);
      return summaryOf(ctx, params.orgId);
    },
  );

  app.delete(
    '/programme/organisations/:orgId/data-roles/:roleId',
    { schema: ROLE, preValidation: programmeAdministrator(ctx, 'programme.data_role.retire') },
    async (request) => {
      const { params } = checked(request, ROLE);
      const { holders } = await retireDataRole(
        ctx,
        { caller: callerIn(request), request },
        params.orgId,
        params.roleId,
      );
      return { holders, organisation: await summaryOf(ctx, params.orgId) };
    },
  );

  app.get(
    '/programme/services',
    { preValidation: programmeAdministrator(ctx, 'programme.service.list') },
    async () => ({ services: await listServices(ctx) }),
  );

  app.post(
    '/programme/services',
    { schema: NEW_SERVICE, preValidation: programmeAdministrator(ctx, 'programme.service.create') },
    async (request, reply) => {
      const acting = { caller: callerIn(request), request };
      return reply.code(201).send(await saveService(ctx, acting, checked(request, NEW_SERVICE).body, 'create'));
    },
  );

  app.put(
    '/programme/services/:serviceId',
    { schema: SERVICE, preValidation: programmeAdministrator(ctx, 'programme.service.update') },
    async (request) => {
      const { params, body } = checked(request, SERVICE);
      if (body.id !== params.serviceId) throw invalidService('id', 'verandert niet');
      return saveService(ctx, { caller: callerIn(request), request }, body, 'update');
    },
  );

  app.delete(
    '/programme/services/:serviceId',
    { schema: ONE_SERVICE, preValidation: programmeAdministrator(ctx, 'programme.service.remove') },
    async (request, reply) => {
      await removeService(ctx, { caller: callerIn(request), request }, checked(request, ONE_SERVICE).params.serviceId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/programme/services/:serviceId/client-secret',
    { schema: ROTATE, preValidation: programmeAdministrator(ctx, 'programme.service.rotate_secret') },
    async (request) => {
      const { params, body } = checked(request, ROTATE);
      const acting = { caller: callerIn(request), request };
      return rotateClientSecret(ctx, acting, params.serviceId, body.overlapHours);
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

  app.get(
    '/programme/administrators',
    { preValidation: programmeAdministrator(ctx, 'programme.admin.list') },
    async () => ({ administrators: await programmeAdministrators(ctx.backend) }),
  );

  app.post(
    '/programme/administrators',
    { schema: GRANT, preValidation: programmeAdministrator(ctx, 'programme.admin.add') },
    async (request, reply) => {
      const person = await ctx.backend.identities.findByEmail(checked(request, GRANT).body.email);
      if (!person) throw errors.noAccountWithEmail();
      const audit = auditAbout(callerIn(request), request, 'programme.admin.add', person, 'success', undefined, null);
      await changeProgrammeRole(ctx.backend, { change: 'add', person, audit, strict: true });
      const { id, traits } = person;
      return reply.code(201).send({ id, email: traits.email, name: traits.name });
    },
  );

  app.delete(
    '/programme/administrators/:userId',
    { schema: WITHDRAW, preValidation: programmeAdministrator(ctx, 'programme.admin.remove') },
    async (request, reply) => {
      const [person] = await ctx.backend.identities.get([checked(request, WITHDRAW).params.userId]);
      if (!person) throw errors.programmeAdminNotFound();
      const caller = callerIn(request);
      const audit = auditAbout(caller, request, 'programme.admin.remove', person, 'success', undefined, null);
      await changeProgrammeRole(ctx.backend, { change: 'remove', person, audit, strict: true });
      return reply.code(204).send();
    },
  );
}
