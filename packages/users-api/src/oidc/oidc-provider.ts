import { validSecretHashes } from './client-secret-store.js';
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { ApiContext } from '../context.js';
import { brandOf } from '../http/house-page.js';
import { accountFinder } from './oidc-account.js';
import { oidcStateAdapter } from './oidc-adapter.js';
import { clientMetadata, secretMatches, serviceOfClient, type ClientSecretHashes } from './oidc-clients.js';
import { OIDC_MOUNT } from './issuer.js';
import { errorPage, loggedOutPage, logoutPage } from './oidc-pages.js';
import type { SessionLinks } from './session-links.js';

export interface OidcOptions {
  /** `PUBLIC_URL` + `/oidc`. */
  issuer: URL;
  /** The signing keys, private JWKs; the first of an algorithm signs, the others still verify (key rotation). */
  jwks: { keys: JWK[] };
  /** The portal's `SECRETS_COOKIE`, from which the provider's cookie keys are derived. */
  cookieSecret: string;
  clientSecrets: ClientSecretHashes;
  /** How long the provider's session lasts: the portal's session lifespan. */
  sessionSeconds: number;
  log: FastifyBaseLogger;
}

/**
 * node-oidc-provider prints an "Unsupported runtime" warning when loaded on Node.js 20, which it runs on all the
 * same; that one line is kept out of the CLI's output and the server log (docs/architecture.md#single-sign-on-for-
 * the-data-services). Loaded only when the server starts, so CLI commands never load it.
 */
async function loadProvider(): Promise<typeof Provider> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
    warn(...args);
  };
  try {
    return (await import('oidc-provider')).default;
  } finally {
    console.warn = warn;
  }
}

const SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

export async function createOidcProvider<DB>(
  ctx: ApiContext,
  db: Kysely<DB>,
  links: SessionLinks,
  options: OidcOptions,
): Promise<Provider> {
  const ProviderClass = await loadProvider();
  const { interactionPolicy } = await import('oidc-provider');
  const stateAdapter = oidcStateAdapter(db, Date.now, { codeIssued: (grantId, sid) => links.recordSid(grantId, sid) });
  // Clients are the catalogue's services with an `oidc` block, read through the catalogue's cache, with the secrets
  // generated for them in 'Programmabeheer' read at each use, so a rotation counts at once.
  const clientAdapter = {
    async find(id: string) {
      const service = serviceOfClient(await ctx.catalogue.current(), id);
      return service ? clientMetadata(service, options.clientSecrets, await validSecretHashes(db, id)) : undefined;
    },
  };

  // The portal's session decides who signs in: every authorization request passes the interaction, which reads it
  // (oidc-routes.ts), so a sign-out at the portal or a lost access counts at once. `prompt=none` cannot pass it, and
  // so answers `login_required`.
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.push(
      new interactionPolicy.Check(
        'portal_session',
        'the portal session must be checked',
        'login_required',
        (koa: KoaContextWithOIDC) => !koa.oidc.result?.login,
      ),
    );

  const configuration: Configuration = {
    adapter: (name: string) => (name === 'Client' ? clientAdapter : stateAdapter(name)) as never,
    findAccount: accountFinder(ctx, links),
    jwks: options.jwks,
    cookies: {
      keys: [createHmac('sha256', options.cookieSecret).update('oidc-provider cookies').digest('base64url')],
    },
    claims: {
      // The assurance of the sign-in travels in every ID token, not only when a client asks for it.
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      acr: null,
      amr: null,
      auth_time: null,
      sid: null,
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      organisations: ['organisation', 'organisations', 'data_roles'],
    },
    // Services such as Grafana read the person from the ID token; it carries the claims of the granted scopes.
    conformIdTokenClaims: false,
    acrValues: ['aal1', 'aal2'],
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', 'email', 'profile', 'organisations'],
    clientAuthMethods: ['client_secret_basic', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: SIGNING_ALGS,
      userinfoSigningAlgValues: SIGNING_ALGS,
      requestObjectSigningAlgValues: SIGNING_ALGS,
      authorizationSigningAlgValues: SIGNING_ALGS,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (koa, form) => {
          koa.type = 'html';
          koa.body = logoutPage(form, koa.oidc.client?.clientName, koa.oidc.client?.clientId, brandOf(ctx.options));
        },
        postLogoutSuccessSource: async (koa) => {
          koa.type = 'html';
          koa.body = loggedOutPage(brandOf(ctx.options));
        },
      },
    },
    // S256 only (the provider supports no other method); required of public clients.
    pkce: { required: (_koa, client) => client.clientAuthMethod === 'none' },
    issueRefreshToken: async (_koa, client) =>
      client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token'),
    interactions: {
      policy,
      url: (_koa, interaction) => `${OIDC_MOUNT}/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_koa, origin, client) =>
      client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: options.sessionSeconds,
    },
    // The provider calls out only to addresses in the catalogue, which the operator wrote (back-channel logout), and
    // data services on a private network or this machine are the rule there: its guard against special-use
    // addresses, meant for addresses that clients register themselves, is left out.
    fetch: (url, init) => {
      const { dispatcher: _guard, ...rest } = init as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, rest);
    },
    renderError: async (koa, out) => {
      koa.type = 'html';
      koa.body = errorPage(String(out.error ?? 'server_error'), brandOf(ctx.options));
    },
  };

  const provider = new ProviderClass(options.issuer.href, configuration);
  // The catalogue holds no secrets and the provider only hashes (oidc-clients.ts): compare a presented secret with
  // the stored hash instead of the provider's plain comparison.
  const clientPrototype = (provider.Client as unknown as { prototype: Record<string, unknown> }).prototype;
  clientPrototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return this.clientSecret !== undefined && secretMatches(this.clientSecret, actual);
  };
  provider.on('server_error', (_koa, error) => options.log.error({ err: error }, 'OpenID Connect provider error'));
  provider.on('backchannel.error', (_koa, error, client) =>
    options.log.warn({ err: error, clientId: client.clientId }, 'back-channel logout not delivered'),
  );
  return provider;
}
