import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { auditAbout } from '../audit/audit-about.js';
import type { ApiContext } from '../context.js';
import { resolveCaller } from '../users/caller.js';
import { mayUse } from '../users/person-service.js';
import { acrOf, amrOf, hasSecondFactor, hasSecondStep, secondFactorMet } from '../users/second-factor.js';
import { serviceOfClient } from './oidc-clients.js';
import { brandOf } from '../http/house-page.js';
import { accessDeniedPage, errorPage, keysDifferPage, STAY_SIGNED_IN_PATH, stayedSignedInPage } from './oidc-pages.js';
import { OIDC_MOUNT, oidcIssuer } from './issuer.js';
import type { SessionLinks } from './session-links.js';
import type { SigningKeyAgreement } from './signing-key-agreement.js';

/** The services retry after this; the processes look at each other's keys every 5 s. */
const KEYS_RETRY_AFTER_SECONDS = 30;

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Every page and answer of the provider: never inside another site's frame (docs/security.md#37-security-headers). */
const FRAME_HEADERS = { 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' };

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .code(status)
    .headers({ 'Cache-Control': 'no-store', ...FRAME_HEADERS })
    .type('text/html; charset=utf-8')
    .send(body);

/** The portal's sign-in screen, back to the interaction afterwards (an allowed return target, see config.ts). */
function loginAddress(ctx: ApiContext, interaction: Interaction, step: 'first' | 'aal2' | 'refresh'): string {
  const back = new URL(`${OIDC_MOUNT}/interaction/${interaction.uid}`, ctx.options.publicUrl);
  const login = new URL('/login', ctx.options.publicUrl);
  if (step === 'aal2') login.searchParams.set('aal', 'aal2');
  if (step === 'refresh') login.searchParams.set('refresh', 'true');
  login.searchParams.set('return_to', back.href);
  return `${login.pathname}${login.search}`;
}

/**
 * Whether the service asks for a sign-in the session has not given: `prompt=login`, or a `max_age` that the last
 * sign-in exceeds (OpenID Connect Core 3.1.2.1). A sign-in after the service asked always counts, so `max_age=0` is
 * met by the one the person has just made, and the provider's `auth_time` is that sign-in's.
 */
function freshSignInNeeded(interaction: Interaction, authenticatedAt: string | undefined): boolean {
  const signedInAt = authenticatedAt ? Math.floor(Date.parse(authenticatedAt) / 1000) : 0;
  if (signedInAt >= (interaction.iat ?? Number.POSITIVE_INFINITY)) return false;
  const prompts = String(interaction.params.prompt ?? '').split(' ');
  if (prompts.includes('login')) return true;
  const maxAge = Number(interaction.params.max_age);
  return interaction.params.max_age !== undefined && Number.isFinite(maxAge) && Date.now() / 1000 - signedInAt > maxAge;
}

const see = (reply: FastifyReply, address: string) =>
  reply.header('Cache-Control', 'no-store').headers(FRAME_HEADERS).redirect(address, 303);

/**
 * The interaction of every authorization request (oidc-provider.ts adds a login check that always asks for it): the
 * portal's session signs the person in, with the second factor where their organisations require it or the client
 * asks for `aal2`; a person the service's access rule leaves out gets a page that says so; a grant is given without a
 * consent screen, since catalogue services are the programme's own. Each outcome is audited.
 */
async function completeInteraction(
  ctx: ApiContext,
  provider: Provider,
  links: SessionLinks,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch {
    return html(reply, 400, errorPage('interaction_expired', brandOf(ctx.options)));
  }
  const catalogue = await ctx.catalogue.current();
  const clientId = String(interaction.params.client_id ?? '');
  const service = serviceOfClient(catalogue, clientId);
  if (!service) return html(reply, 400, errorPage('invalid_client', brandOf(ctx.options)));
  const session = await ctx.backend.identities.sessionOf(request.headers);
  if (session?.identity.state !== 'active') return see(reply, loginAddress(ctx, interaction, 'first'));
  if (freshSignInNeeded(interaction, session.authenticatedAt)) {
    return see(reply, loginAddress(ctx, interaction, 'refresh'));
  }
  const caller = await resolveCaller(session, ctx.backend.relations, catalogue, ctx.options.dashboardAllowlist);
  const acrValues = String(interaction.params.acr_values ?? '').split(' ');
  if ((caller.aal2Required || acrValues.includes('aal2')) && !secondFactorMet(session)) {
    // Without a second factor yet, the sign-in screen sends the person to link one first, with the way back here
    // (apps/web/src/screens/LoginScreen.tsx); with one, to the second step.
    // Only the client asks, and the portal would not have the person link an app: the client learns it cannot be.
    if (!hasSecondFactor(session.identity.credentials) && !caller.aal2Required) {
      return finishWith(ctx, provider, request, reply, UNMET_AAL2);
    }
    const secondStep = hasSecondStep(session.identity.credentials);
    return see(reply, loginAddress(ctx, interaction, secondStep ? 'aal2' : 'first'));
  }
  const details = { service: service.id, clientId };
  if (!mayUse(service, caller.tuples, catalogue)) {
    await ctx.audit.record(auditAbout(caller, request, 'service.sign_in', null, 'denied', details));
    return html(
      reply,
      403,
      accessDeniedPage(service.name, `${OIDC_MOUNT}/interaction/${interaction.uid}/abort`, brandOf(ctx.options)),
    );
  }
  const accountId = session.identity.id;
  // A grant belongs to one portal session and ends with it (single-logout.ts): the open grant of this session is
  // given again, never one made from an earlier session.
  const openGrantId = await links.openGrantOf(session.sessionId, clientId);
  const existing = openGrantId ? await provider.Grant.find(openGrantId) : undefined;
  const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(String(interaction.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await links.link(grantId, session.sessionId, clientId, accountId);
  const result: InteractionResults = {
    login: {
      accountId,
      acr: acrOf(session),
      amr: amrOf(session),
      ...(session.authenticatedAt ? { ts: Math.floor(Date.parse(session.authenticatedAt) / 1000) } : {}),
      // The provider's session ends with the browser; the portal's session is asked again at every sign-in anyway.
      remember: false,
    },
    consent: { grantId },
  };
  await ctx.audit.record(auditAbout(caller, request, 'service.sign_in', null, 'success', details));
  const next = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  return see(reply, next);
}

const ACCESS_DENIED = { error: 'access_denied', error_description: 'no access to this service' };
const UNMET_AAL2 = {
  error: 'unmet_authentication_requirements',
  error_description: 'the person has no second factor',
};

/** Ends the interaction with an error for the client, which the provider then redirects to. */
async function finishWith(
  ctx: ApiContext,
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  error: typeof ACCESS_DENIED,
) {
  let next: string;
  try {
    next = await provider.interactionResult(request.raw, reply.raw, error, { mergeWithLastSubmission: false });
  } catch {
    return html(reply, 400, errorPage('interaction_expired', brandOf(ctx.options)));
  }
  return see(reply, next);
}

/** The portal session of a logout confirmation, found before the provider reads the request (see below). */
const PORTAL_SESSION = Symbol('portal session');
type WithPortalSession = IncomingMessage & { [PORTAL_SESSION]?: string };

/**
 * 'Ja, uitloggen' at a service ends the portal's session too, once the provider has accepted the confirmation (its
 * `xsrf` checked, its own session ended): the next sign-in at any service asks for the password again, and the
 * single-logout round tells every other service signed in from that session (single-logout.ts).
 */
function endPortalSessionOnConfirmedLogout(ctx: ApiContext, provider: Provider) {
  provider.use(async (koa, next) => {
    await next();
    const confirmed = koa.oidc?.route === 'end_session_confirm' && Boolean(koa.oidc.params?.logout);
    const portalSession = (koa.req as WithPortalSession)[PORTAL_SESSION];
    if (confirmed && koa.status === 303 && portalSession) await ctx.backend.identities.endSession(portalSession);
  });
}

/** 'Nee, ingelogd blijven': nothing is ended, and the page says so, with the way back to the asking service. */
async function stayedSignedIn(ctx: ApiContext, request: FastifyRequest, reply: FastifyReply) {
  const clientId = (request.query as { client_id?: unknown }).client_id;
  const service = typeof clientId === 'string' ? serviceOfClient(await ctx.catalogue.current(), clientId) : undefined;
  return html(reply, 200, stayedSignedInPage(service, brandOf(ctx.options)));
}

/**
 * Mounts node-oidc-provider's Koa app at `/oidc` on the public listener, with the interaction routes beside it
 * (docs/architecture.md#single-sign-on-for-the-data-services). The provider reads its own request bodies, so its
 * scope parses none.
 */
export async function registerOidcProvider(
  app: FastifyInstance,
  ctx: ApiContext,
  provider: Provider,
  links: SessionLinks,
  keys: Pick<SigningKeyAgreement, 'agrees'>,
): Promise<void> {
  endPortalSessionOnConfirmedLogout(ctx, provider);
  // While another process publishes other signing keys, no token may be issued or honoured (signing-key-agreement.ts).
  const refuseWhileKeysDiffer = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (keys.agrees()) return;
    void reply.header('Retry-After', String(KEYS_RETRY_AFTER_SECONDS));
    return html(reply, 503, keysDifferPage(brandOf(ctx.options)));
  };
  const koa = provider.callback();
  const issuer = oidcIssuer(ctx.options.publicUrl);
  // The provider builds its addresses (discovery, redirects, cookies' Secure flag) from the request; PUBLIC_URL
  // decides them instead, as it does every link of the portal, whatever a proxy or load balancer wrote in `Host`.
  provider.proxy = true;
  await app.register(async (scope) => {
    scope.addHook('onRequest', refuseWhileKeysDiffer);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${OIDC_MOUNT}/*`, async (request, reply) => {
      const raw = request.raw as WithPortalSession & { originalUrl?: string };
      // The session is read here, where the portal's cookie parsing is at hand; the provider decides.
      if (request.method === 'POST' && request.url.split('?')[0] === `${OIDC_MOUNT}/session/end/confirm`) {
        raw[PORTAL_SESSION] = (await ctx.backend.identities.sessionOf(request.headers))?.sessionId;
      }
      reply.headers(FRAME_HEADERS);
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      // As a mounted Koa app sees it: the path below the mount, and the original for the provider's own links.
      const original = raw.url ?? '/';
      raw.originalUrl = original;
      const below = original.replace(/^\/+oidc/, '');
      raw.url = below.startsWith('/') ? below : `/${below}`;
      raw.headers.host = issuer.host;
      raw.headers['x-forwarded-host'] = issuer.host;
      raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      // The client's address as the portal decided it (TRUSTED_PROXIES), not as the request claims.
      raw.headers['x-forwarded-for'] = request.ip;
      void koa(raw, reply.raw);
    });
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', refuseWhileKeysDiffer);
    scope.get(`${OIDC_MOUNT}/interaction/:uid`, (request, reply) =>
      completeInteraction(ctx, provider, links, request, reply),
    );
    // 'Terug naar …' on the refusal page: the client learns `access_denied`.
    scope.post(`${OIDC_MOUNT}/interaction/:uid/abort`, (request, reply) =>
      finishWith(ctx, provider, request, reply, ACCESS_DENIED),
    );
    scope.post(STAY_SIGNED_IN_PATH, (request, reply) => stayedSignedIn(ctx, request, reply));
  });
}
