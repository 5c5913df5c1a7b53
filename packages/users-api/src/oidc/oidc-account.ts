import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import type { DataService } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import type { UserIdentity } from '../ports.js';
import { resolveCaller, type Caller } from '../users/caller.js';
import { holds, mayUse } from '../users/person-service.js';
import { serviceOfClient } from './oidc-clients.js';
import type { SessionLinks } from './session-links.js';

/** The person as the provider sees them: their identity, tuples and organisations, without a portal session. */
async function personOf(ctx: ApiContext, identity: UserIdentity): Promise<Caller> {
  return resolveCaller(
    { sessionId: '', aal: 'aal1', methods: [], identity },
    ctx.backend.relations,
    await ctx.catalogue.current(),
    ctx.options.dashboardAllowlist,
  );
}

/**
 * The claims a service receives (README, 'Single sign-on'): who the person is, their active organisation and all of
 * them, and only those of their data roles that the service's access rule names.
 */
function personClaims(person: Caller, service: DataService | undefined) {
  const { identity } = person.session;
  const { first, last } = identity.traits.name;
  return {
    sub: identity.id,
    email: identity.traits.email,
    email_verified: identity.verified,
    name: `${first} ${last}`.trim(),
    given_name: first,
    family_name: last,
    organisation: person.activeOrg?.id ?? null,
    organisations: person.organisations.map((o) => o.id),
    data_roles: service ? service.dataRoles.filter((object) => holds(person.tuples, 'subdivisions', object)) : [],
  };
}

/**
 * Whether the grant a token or code was issued under still stands: it was made from a portal session that can still
 * be used. A grant without a link (made before links were kept) does not stand. The single-logout round ends such
 * grants within a second (single-logout.ts); this answers in the meantime, so no token outlives its session.
 */
async function grantStands(ctx: ApiContext, links: SessionLinks, grantId: string): Promise<boolean> {
  const link = await links.find(grantId);
  if (!link || link.ended_at !== null) return false;
  return (await ctx.backend.identities.liveSessions([link.portal_session_id])).has(link.portal_session_id);
}

/**
 * node-oidc-provider's `findAccount`: an active identity that may still use the client's service, asked about with a
 * token or code whose grant still stands. A blocked person, one who lost access since signing in, or one whose
 * portal session ended gets no tokens, no refresh and no userinfo.
 */
export function accountFinder(ctx: ApiContext, links: SessionLinks) {
  return async (koa: KoaContextWithOIDC, sub: string, token?: { grantId?: string }): Promise<Account | undefined> => {
    if (token?.grantId !== undefined && !(await grantStands(ctx, links, token.grantId))) return undefined;
    const [identity] = await ctx.backend.identities.get([sub]);
    if (identity?.state !== 'active') return undefined;
    const person = await personOf(ctx, identity);
    const clientId = koa.oidc.client?.clientId;
    const catalogue = await ctx.catalogue.current();
    const service = clientId ? serviceOfClient(catalogue, clientId) : undefined;
    if (clientId && !(service && mayUse(service, person.tuples, catalogue))) return undefined;
    return { accountId: sub, claims: () => personClaims(person, service) };
  };
}
