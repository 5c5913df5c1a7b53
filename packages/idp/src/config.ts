import type { Argon2Cost } from './credentials/password/password-hasher.js';

/** Settings of the identity provider, resolved by the composition root from the environment. */
export interface IdpConfig {
  publicUrl: URL;
  /** Base URL of the admin listener, used in `Location` headers of admin answers. */
  adminUrl: URL;
  /** Origins and path prefixes that `return_to` may point to (docs/kratos-compatibility.md#allowed-return-targets). */
  allowedReturnUrls: URL[];
  registrationEnabled: boolean;
  /** Secret of at least 32 characters from which logout tokens are derived. */
  cookieSecret: string;
  /**
   * `leaseMs`: how long a mail claimed for sending belongs to its process; after a crash between the SMTP server's
   * acceptance and the mail being marked sent, it goes out again once the lease has passed (at least once).
   */
  mail: { smtpUrl: string | undefined; from: string; leaseMs: number };
  hibpUrl: URL | undefined;
  /** Kratos' `session.whoami.required_aal`: `highest_available` (default) or `aal1`. */
  whoamiRequiredAal: 'highest_available' | 'aal1';
  lifespans: {
    flowMs: number;
    /** Self-service recovery and verification codes and links. */
    codeMs: number;
    invitationMs: number;
    sessionMs: number;
    sessionIdleMs: number;
    privilegedSessionMs: number;
  };
  throttling: {
    /** Failures allowed per identifier before the temporary lock (the BIO allows at most 10). */
    maxFailures: number;
    lockMs: number;
    /** Failures allowed per client address within `lockMs`. */
    maxFailuresPerAddress: number;
  };
  password: {
    minLength: number;
    /** Concurrent argon2 hashes; further requests queue up to `hashQueueLimit`, then get 503. */
    hashConcurrency: number;
    hashQueueLimit: number;
    /** Kratos' `hashers.argon2`; OWASP's m=19 MiB, t=2, p=1 when left out. */
    argon2?: Argon2Cost;
  };
  /** Issuer shown in authenticator apps. */
  totpIssuer: string;
  /**
   * The WebAuthn relying party of passkeys and security keys (Kratos' `selfservice.methods.<method>.config.rp`): its
   * id, a host name that the public URL's host equals or ends in, and the name authenticators show; both default to
   * the public URL's host.
   */
  webauthn?: { rpId?: string; rpDisplayName?: string };
  /**
   * Where the flows' screens live, as Kratos' `selfservice.flows.<flow>.ui_url`, `selfservice.flows.error.ui_url`
   * and `selfservice.default_browser_return_url`; each left out is the portal's own path on the public URL.
   */
  uiUrls?: Partial<Record<UiScreen, URL>>;
  /** Kratos' `session.cookie.name`; `ory_kratos_session` when left out. */
  sessionCookieName?: string;
  /**
   * Kratos' `session.cookie.domain`: the parent domain whose hosts also get the session cookie, such as data
   * services behind a proxy with forward authentication; left out, the cookie is the public URL's host's alone.
   */
  sessionCookieDomain?: string;
}

export type UiScreen = keyof typeof UI_PATHS;

export const UI_PATHS = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/settings',
  error: '/error',
  defaultReturn: '/permissies',
} as const;
