import type { FastifyInstance } from 'fastify';
import { clientAddressKey } from '@portaal/idp';
import { recoveryLinkMail } from '@portaal/nl';
import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject } from '../catalogue/catalogue.js';
import { callerOf, clientAddressOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { emailSchema } from '../http/validation.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import { administers, MEMBERSHIP, organisationIn } from '../users/caller.js';
import { permissionsWithin, userJson } from '../users/user-json.js';

const holds = (tuples: RelationTuple[], namespace: string, object: string) =>
  tuples.some((t) => t.namespace === namespace && t.object === object && MEMBERSHIP.has(t.relation));

/** The person's pending invitations, as the portal shows them to accept or decline. */
async function invitationsOf(ctx: ApiContext, identityId: string) {
  await expireInvitations(ctx);
  const pending = await ctx.invitations.ofIdentity(identityId);
  if (pending.length === 0) return [];
  const catalogue = await ctx.catalogue.current();
  return pending.map((invitation) => {
    const organisation = organisationIn(catalogue, invitation.organisationId);
    return {
      id: invitation.id,
      organisation: { id: organisation.id, label: organisation.label },
      invitedBy: invitation.invitedByEmail,
      isAdmin: invitation.relations.some((t) => t.namespace === 'organizations' && t.relation === 'admin'),
      dataRoles: organisation.dataRoles
        .filter((role) =>
          invitation.relations.some(
            (t) => t.namespace === 'subdivisions' && t.object === dataRoleObject(role.id, organisation.id),
          ),
        )
        .map((role) => ({ roleId: role.id, label: role.label })),
      expiresAt: invitation.expiresAt,
    };
  });
}

/** The calls about the caller: config, whoami, configured credentials, administrators, services, recovery. */
export function registerSelfRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { options, backend } = ctx;

  app.get('/config', async () => ({
    title: options.sidebarTitle ?? 'Datavoorzieningen VNG',
    description: options.sidebarDescription ?? 'Datavoorziening VNG Realisatie',
    supportEmail: options.supportEmail ?? null,
    feedbackEmail: options.feedbackEmail ?? null,
    accessibilityStatementUrl: options.accessibilityStatementUrl ?? null,
    privacyStatementUrl: options.privacyStatementUrl ?? null,
    registrationEnabled: options.registrationEnabled,
    dashboardAllowlist: options.dashboardAllowlist.length > 0,
    sessionIdleSeconds: options.sessionIdleMs === undefined ? null : Math.round(options.sessionIdleMs / 1000),
  }));

  app.get('/users/whoami', async (request) => {
    const caller = await callerOf(ctx, request, { aal1: true });
    const org = caller.activeOrg;
    return {
      active: caller.session.identity.state === 'active',
      identity: org
        ? userJson(caller.session.identity, caller.tuples, org)
        : { ...caller.session.identity, permissions: [], userType: { id: 'analyst', label: 'Medewerker' } },
      permissions: org ? permissionsWithin(caller.tuples, org) : [],
      activeOrg: org
        ? { id: org.id, label: org.label, subdivisions: org.dataRoles.map((r) => ({ id: r.id, label: r.label })) }
        : null,
      homeOrganisation: caller.homeOrgId ?? null,
      organisations: caller.organisations.map((o) => ({
        id: o.id,
        label: o.label,
        isAdmin: administers(caller.tuples, o.id),
        requiresAal2: o.requiresAal2,
        home: o.id === caller.homeOrgId,
        active: o.id === org?.id,
      })),
      invitations: await invitationsOf(ctx, caller.session.identity.id),
      isAdmin: caller.isAdmin,
      authenticator_assurance_level: caller.session.aal,
      aal2Required: caller.aal2Required,
    };
  });

  app.get('/users/configured-credentials', async (request) => {
    const caller = await callerOf(ctx, request, { aal1: true });
    const credentials = caller.session.identity.credentials;
    return { totp: credentials.includes('totp'), lookup_secret: credentials.includes('lookup_secret') };
  });

  app.get('/users/admins', async (request) => {
    const caller = await callerOf(ctx, request);
    const org = caller.activeOrg;
    if (!org) return [];
    const ids = (await backend.relations.list({ namespace: 'organizations', object: org.id, relation: 'admin' }))
      .map((t) => t.subject_id!)
      .filter((id) => id !== caller.session.identity.id);
    const admins = await backend.identities.get([...new Set(ids)]);
    return admins
      .filter((a) => a.state === 'active')
      .map((a) => ({ id: a.id, state: a.state, traits: { email: a.traits.email } }));
  });

  app.get('/services', async (request) => {
    const caller = await callerOf(ctx, request);
    const catalogue = await ctx.catalogue.current();
    const org = caller.activeOrg;
    const services = catalogue.services.filter(
      (s) =>
        s.organisations.some((orgId) => holds(caller.tuples, 'organizations', orgId)) ||
        s.dataRoles.some((object) => holds(caller.tuples, 'subdivisions', object)),
    );
    const dataRoles = org
      ? org.dataRoles
          .filter((r) => holds(caller.tuples, 'subdivisions', dataRoleObject(r.id, org.id)))
          .map((r) => ({ roleId: r.id, label: r.label }))
      : [];
    return {
      organisation: org ? { id: org.id, label: org.label } : null,
      dataRoles,
      services: services.map((s) => ({ id: s.id, name: s.name, description: s.description, url: s.url })),
    };
  });

  // No session needed; throttled; the same answer whether or not the address has an account (no enumeration).
  app.get('/users/password-recovery', async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).email;
    const parsed = emailSchema.safeParse(raw);
    if (!parsed.success) throw errors.invalid('The e-mail address is not valid.', 'E-mail is niet valide.');
    const email = parsed.data;
    const client = clientAddressOf(request);
    const window = 15 * 60_000;
    // Keyed as the sign-in limits are: an IPv6 client by its /64, which is one subscriber's, not by each of the
    // addresses in it (docs/security.md#46-which-client-address-counts).
    const allowed =
      (await ctx.limiter.allow(clientAddressKey('users-api:recovery', client), 30, window)) &&
      (await ctx.limiter.allow(`users-api:recovery:address:${email}`, 5, window));
    // The mail is prepared after the answer, so that known and unknown addresses also take the same time.
    setImmediate(() => {
      void (async () => {
        if (!allowed) return;
        const user = await backend.identities.findByEmail(email);
        if (user?.state !== 'active') return;
        const url = await backend.identities.recoveryLink(user.id, options.recoveryMs);
        await backend.mail.send({
          to: user.traits.email,
          ...recoveryLinkMail({ url, validMinutes: Math.round(options.recoveryMs / 60_000) }),
          templateType: 'recovery_link',
        });
        await ctx.audit.record({
          action: 'user.password_recovery',
          objectId: user.id,
          objectEmail: user.traits.email,
          result: 'success',
          clientAddress: client,
        });
      })().catch((error: unknown) => request.log.error({ err: error }, 'password recovery mail failed'));
    });
    return reply.code(200).send({ sent: true });
  });
}
