import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { auditAbout, type ApiContext } from '../http/api-context.js';
import { resolveCaller } from '../users/caller.js';
import { mayUse } from '../users/person-service.js';
import { acrOf, amrOf, hasSecondFactor, hasSecondStep, secondFactorMet } from '../users/second-factor.js';
import { serviceOfClient } from './oidc-clients.js';
import { accessDeniedPage, errorPage } from './oidc-pages.js';
import { OIDC_MOUNT, oidcIssuer } from './issuer.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);

/** The portal's sign-in screen, back to the interaction afterwards (an allowed return target, see config.ts). */
function loginAddress(ctx: ApiContext, interaction: Interaction, aal2: boolean): string {
  const back = new URL(`${OIDC_MOUNT}/interaction/${interaction.uid}`, ctx.options.publicUrl);
  const login = new URL('/login', ctx.options.publicUrl);
  if (aal2) login.searchParams.set('aal', 'aal2');
  login.searchParams.set('return_to', back.href);
  return `${login.pathname}${login.search}`;
}

/**
 * The interaction of every authorization request (oidc-provider.ts adds a login check that always asks for it): the
 * portal's session signs the person in, with the second factor where their organisations require it or the client
 * asks for `aal2`; a person the service's access rule leaves out gets a page that says so; a grant is given without a
 * consent screen, since catalogue services are the programme's own. Each outcome is audited.
 */
async function completeInteraction(ctx: ApiContext, provider: Provider, request: FastifyRequest, reply: FastifyReply) {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch {
    return html(reply, 400, errorPage('interaction_expired'));
  }
  const catalogue = await ctx.catalogue.current();
  const clientId = String(interaction.params.client_id ?? '');
  const service = serviceOfClient(catalogue, clientId);
  if (!service) return html(reply, 400, errorPage('invalid_client'));
  const session = await ctx.backend.identities.sessionOf(request);
  if (session?.identity.state !== 'active') {
    return reply.header('Cache-Control', 'no-store').redirect(loginAddress(ctx, interaction, false), 303);
  }
  const caller = await resolveCaller(session, ctx.backend.relations, catalogue, ctx.options.dashboardAllowlist);
  const acrValues = String(interaction.params.acr_values ?? '').split(' ');
  if ((caller.aal2Required || acrValues.includes('aal2')) && !secondFactorMet(session)) {
    // Without a second factor yet, the sign-in screen sends the person to link one first, with the way back here
    // (apps/web/src/screens/LoginScreen.tsx); with one, to the second step.
    // Only the client asks, and the portal would not have the person link an app: the client learns it cannot be.
    if (!hasSecondFactor(session.identity.credentials) && !caller.aal2Required) {
      return finishWith(provider, request, reply, UNMET_AAL2);
    }
    const secondStep = hasSecondStep(session.identity.credentials);
    return reply.header('Cache-Control', 'no-store').redirect(loginAddress(ctx, interaction, secondStep), 303);
  }
  const details = { service: service.id, clientId };
  if (!mayUse(service, caller.tuples)) {
    await ctx.audit.record(auditAbout(caller, request, 'service.sign_in', null, 'denied', details));
    return html(reply, 403, accessDeniedPage(service.name, `${OIDC_MOUNT}/interaction/${interaction.uid}/abort`));
  }
  const accountId = session.identity.id;
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(String(interaction.params.scope ?? 'openid'));
  const result: InteractionResults = {
    login: {
      accountId,
      acr: acrOf(session),
      amr: amrOf(session),
      ...(session.authenticatedAt ? { ts: Math.floor(Date.parse(session.authenticatedAt) / 1000) } : {}),
      // The provider's session ends with the browser; the portal's session is asked again at every sign-in anyway.
      remember: false,
    },
    consent: { grantId: await grant.save() },
  };
  await ctx.audit.record(auditAbout(caller, request, 'service.sign_in', null, 'success', details));
  const next = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  return reply.header('Cache-Control', 'no-store').redirect(next, 303);
}

const ACCESS_DENIED = { error: 'access_denied', error_description: 'no access to this service' };
const UNMET_AAL2 = {
  error: 'unmet_authentication_requirements',
  error_description: 'the person has no second factor',
};

/** Ends the interaction with an error for the client, which the provider then redirects to. */
async function finishWith(
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  error: typeof ACCESS_DENIED,
) {
  let next: string;
  try {
    next = await provider.interactionResult(request.raw, reply.raw, error, { mergeWithLastSubmission: false });
  } catch {
    return html(reply, 400, errorPage('interaction_expired'));
  }
  return reply.header('Cache-Control', 'no-store').redirect(next, 303);
}

/**
 * Mounts node-oidc-provider's Koa app at `/oidc` on the public listener, with the interaction routes beside it
 * (docs/architecture.md#single-sign-on-for-the-data-services). The provider reads its own request bodies, so its
 * scope parses none.
 */
export async function registerOidcProvider(app: FastifyInstance, ctx: ApiContext, provider: Provider): Promise<void> {
  const koa = provider.callback();
  const issuer = oidcIssuer(ctx.options.publicUrl);
  // The provider builds its addresses (discovery, redirects, cookies' Secure flag) from the request; PUBLIC_URL
  // decides them instead, as it does every link of the portal, whatever a proxy or load balancer wrote in `Host`.
  provider.proxy = true;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${OIDC_MOUNT}/*`, (request, reply) => {
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      // As a mounted Koa app sees it: the path below the mount, and the original for the provider's own links.
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
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
    scope.get(`${OIDC_MOUNT}/interaction/:uid`, (request, reply) => completeInteraction(ctx, provider, request, reply));
    // 'Terug naar …' on the refusal page: the client learns `access_denied`.
    scope.post(`${OIDC_MOUNT}/interaction/:uid/abort`, (request, reply) =>
      finishWith(provider, request, reply, ACCESS_DENIED),
    );
  });
}
