import { clientAddressKey } from '@portaal/idp';
import { recoveryLinkMail } from '@portaal/nl';
import type { RelationTuple } from '@portaal/relations';
import { type Catalogue, type DataService, dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import type { RequestOrigin } from '../audit/audit-about.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import { administers, type Caller, MEMBERSHIP, organisationIn } from './caller.js';
import { oidcIssuer } from '../oidc/issuer.js';
import { permissionsWithin, userJson } from './user-json.js';
import { secondFactorMet } from './second-factor.js';

/**
 * What a person sees of themselves (docs/organisations.md), apart from HTTP: whoami, the other administrators of
 * their organisation, the data services they may use, and the recovery link asked for without a session.
 */
/** Whether the tuples give membership (`issuer` or `access`) of an organisation or a data role. */
export const holds = (tuples: RelationTuple[], namespace: string, object: string) =>
  tuples.some((t) => t.namespace === namespace && t.object === object && MEMBERSHIP.has(t.relation));

/**
 * The access rule of a data service: a person may use it through one of its organisations or one of its data roles.
 * `GET /services` lists by it and `GET /forward-auth` decides by it.
 */
export const mayUse = (service: DataService, tuples: RelationTuple[], catalogue: Catalogue) => {
  const inactive = inactiveOf(catalogue);
  return (
    service.organisations.some((orgId) => !inactive.has(orgId) && holds(tuples, 'organizations', orgId)) ||
    service.dataRoles.some(
      (object) => !inactive.has(organisationOfDataRole(object)) && holds(tuples, 'subdivisions', object),
    )
  );
};

/** The deactivated organisations of each catalogue, found once: forward authentication asks on every request. */
const inactiveSets = new WeakMap<Catalogue, Set<string>>();
function inactiveOf(catalogue: Catalogue): Set<string> {
  let found = inactiveSets.get(catalogue);
  if (!found) {
    found = new Set(catalogue.organisations.filter((org) => !org.active).map((org) => org.id));
    inactiveSets.set(catalogue, found);
  }
  return found;
}

/** The organisation a data role's object (`roleId_orgId`) belongs to. */
const organisationOfDataRole = (object: string) => object.slice(object.indexOf('_') + 1);

/**
 * The access rule within one organisation: through that organisation or one of its data roles. `GET /services`
 * lists by it, so that a person of several organisations sees the services of the one they work for now.
 */
const mayUseWithin = (service: DataService, tuples: RelationTuple[], org: Organisation) =>
  org.active &&
  ((service.organisations.includes(org.id) && holds(tuples, 'organizations', org.id)) ||
    org.dataRoles.some((role) => {
      const object = dataRoleObject(role.id, org.id);
      return service.dataRoles.includes(object) && holds(tuples, 'subdivisions', object);
    }));

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

/** `GET /users/whoami`: the person, their organisations (by label), the active one and their invitations. */
export async function whoami(ctx: ApiContext, caller: Caller) {
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
    /** Holds the programme administrator's role ('Programmabeheer'). */
    isProgrammeAdmin: caller.isProgrammeAdmin,
    authenticator_assurance_level: caller.session.aal,
    /** The session's authentication methods by name (`password`, `totp`, `passkey`, `webauthn`, …). */
    authentication_methods: caller.session.methods,
    aal2Required: caller.aal2Required,
    /** Whether this sign-in meets the second-factor policy (users/second-factor.ts): the portal's guards use it. */
    secondFactorMet: secondFactorMet(caller.session),
  };
}

/** `GET /users/admins`: the other active administrators of the person's active organisation. */
export async function otherAdministrators(ctx: ApiContext, caller: Caller) {
  const org = caller.activeOrg;
  if (!org) return [];
  const { relations, identities } = ctx.backend;
  const ids = (await relations.list({ namespace: 'organizations', object: org.id, relation: 'admin' }))
    .map((t) => t.subject_id!)
    .filter((id) => id !== caller.session.identity.id);
  const admins = await identities.get([...new Set(ids)]);
  return admins
    .filter((a) => a.state === 'active')
    .map((a) => ({ id: a.id, state: a.state, traits: { email: a.traits.email } }));
}

/**
 * `GET /services`: the data services the person may use through the active organisation or its data roles; those of
 * their other organisations only after switching to that organisation.
 */
export async function servicesOf(ctx: ApiContext, caller: Caller) {
  const catalogue = await ctx.catalogue.current();
  const org = caller.activeOrg;
  const services = org ? catalogue.services.filter((s) => mayUseWithin(s, caller.tuples, org)) : [];
  const dataRoles = org
    ? org.dataRoles
        .filter((r) => holds(caller.tuples, 'subdivisions', dataRoleObject(r.id, org.id)))
        .map((r) => ({ roleId: r.id, label: r.label }))
    : [];
  return {
    organisation: org ? { id: org.id, label: org.label } : null,
    dataRoles,
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      url: s.url,
      ...(s.oidc?.initiateLoginUri ? { signInUrl: signInAddress(ctx, s.oidc.initiateLoginUri, s.url) } : {}),
    })),
  };
}

/**
 * A service that signs in through the portal is opened at its `initiate_login_uri` (OpenID Connect Core 1.0,
 * section 4), which starts the sign-in at once: the person, signed in at the portal, arrives signed in.
 */
function signInAddress(ctx: ApiContext, initiateLoginUri: string, target: string): string {
  const address = new URL(initiateLoginUri);
  address.searchParams.set('iss', oidcIssuer(ctx.options.publicUrl).href);
  address.searchParams.set('target_link_uri', target);
  return address.href;
}

const RECOVERY_WINDOW_MS = 15 * 60_000;

/**
 * `GET /users/password-recovery`: whether a recovery link may be sent now (30 per client, 5 per address in 15
 * minutes), keyed as the sign-in limits are: an IPv6 client by its /64, which is one subscriber's, not by each of
 * the addresses in it (docs/security.md#46-which-client-address-counts).
 */
export async function recoveryAllowed(ctx: ApiContext, request: RequestOrigin, email: string): Promise<boolean> {
  return (
    (await ctx.limiter.allow(clientAddressKey('users-api:recovery', request.ip), 30, RECOVERY_WINDOW_MS)) &&
    (await ctx.limiter.allow(`users-api:recovery:address:${email}`, 5, RECOVERY_WINDOW_MS))
  );
}

/** The recovery link mail for an active account with this address, audited; nothing for any other address. */
export async function sendRecoveryLink(ctx: ApiContext, request: RequestOrigin, email: string): Promise<void> {
  const { backend, options } = ctx;
  const user = await backend.identities.findByEmail(email);
  if (user?.state !== 'active') return;
  // The link writes on its own (ports.ts); the mail and its audit entry are written together.
  const url = await backend.identities.recoveryLink(user.id, options.recoveryMs);
  await backend.atomically(async (ports) => {
    await ports.mail.send({
      to: user.traits.email,
      ...recoveryLinkMail({ url, validMinutes: Math.round(options.recoveryMs / 60_000) }),
      templateType: 'recovery_link',
    });
    await ports.audit.record({
      action: 'user.password_recovery',
      objectId: user.id,
      objectEmail: user.traits.email,
      result: 'success',
      clientAddress: request.ip,
    });
  });
}
