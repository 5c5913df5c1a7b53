import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import net from 'node:net';
import { OWASP_ARGON2, parseDuration, type Argon2Cost, type IdpConfig, type UiScreen } from '@portaal/idp';
import { OidcSettingError, readOidcSettings, type OidcSettings } from './oidc-settings.js';

export interface ServerConfig {
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  dataDir: string;
  databaseUrl: string;
  logLevel: string;
  identityBackend: 'embedded' | 'ory';
  /** Ory Kratos and Keto endpoints, when `IDENTITY_BACKEND=ory`. */
  ory: { kratosPublicUrl: URL; kratosAdminUrl: URL; ketoReadUrl: URL; ketoWriteUrl: URL } | undefined;
  /** The shared secret of Kratos' login web_hook (`ORY_WEBHOOK_SECRET`), read only with `IDENTITY_BACKEND=ory`. */
  oryWebhookSecret: string | undefined;
  supportEmail: string | undefined;
  feedbackEmail: string | undefined;
  /** The installation's own name and description in the header of every page; the programme's when unset. */
  brand: { title: string | undefined; description: string | undefined };
  /** Where the organisation publishes its accessibility and privacy statements, linked at the foot of every page. */
  statements: { accessibility: string | undefined; privacy: string | undefined };
  catalogueFile: string | undefined;
  /** How long audit entries are kept before the daily pruning removes them. */
  auditRetentionMs: number;
  /** On SIGTERM: readiness answers 503 for `drainMs` so a load balancer stops sending, then everything closes. */
  shutdown: { drainMs: number; timeoutMs: number };
  dashboardAllowlist: string[];
  /**
   * Reverse proxies whose `X-Forwarded-For` counts: addresses, CIDR ranges or `loopback`, `linklocal`,
   * `uniquelocal`. Empty: the TCP peer is the client, whatever a request claims.
   */
  trustedProxies: string[];
  /** The OpenID Connect provider's keys and client secrets (`OIDC_*`). */
  oidc: OidcSettings;
  /**
   * `SECRETS_CIPHER`: the keys that seal the secrets inside credentials (authenticator apps, backup codes), the first
   * sealing and every one opening, as Kratos' `secrets.cipher`; by default the cookie secret.
   */
  cipherSecrets: string[];
  /** `ADMIN_API_TOKEN`: the bearer token every admin request but the health probes must carry, when set. */
  adminApiToken: string | undefined;
  idp: IdpConfig;
}

/** A configuration problem, reported as one line naming the variable; never a stack trace. */
export class ConfigError extends Error {}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyRange(entry: string): boolean {
  if (PROXY_KEYWORDS.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function trustedProxies(env: Env): string[] {
  const entries = (read(env, 'TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isProxyRange(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUSTED_PROXIES bevat '${wrong}', dat geen IP-adres, adresbereik (CIDR) of loopback, linklocal of ` +
        'uniquelocal is.',
    );
  }
  return entries;
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function port(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 65535) {
    throw new ConfigError(`${name} moet een poortnummer tussen 1 en 65535 zijn, maar is '${raw}'.`);
  }
  return value;
}

function url(name: string, raw: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(
      `${name} moet een volledige URL zijn (bijvoorbeeld https://portaal.gemeente.nl), maar is '${raw}'.`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} moet met http:// of https:// beginnen, maar is '${raw}'.`);
  }
  return parsed;
}

/** Kratos' `session.cookie.name`; a `__Host-` name needs https, or browsers would drop the cookie. */
function sessionCookieName(env: Env, publicUrl: URL): string | undefined {
  const name = read(env, 'SESSION_COOKIE_NAME');
  if (name === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new ConfigError(`SESSION_COOKIE_NAME mag alleen letters, cijfers, - en _ bevatten, maar is '${name}'.`);
  }
  if ((name.startsWith('__Host-') || name.startsWith('__Secure-')) && publicUrl.protocol !== 'https:') {
    throw new ConfigError(`SESSION_COOKIE_NAME '${name}' werkt alleen als PUBLIC_URL met https:// begint.`);
  }
  return name;
}

/**
 * Kratos' `session.cookie.domain`: a parent domain of the public URL's host, so that services on its other hosts
 * (forward authentication) get the session cookie too. A `__Host-` cookie may not have a domain.
 */
function sessionCookieDomain(env: Env, publicUrl: URL, cookieName: string | undefined): string | undefined {
  const domain = read(env, 'SESSION_COOKIE_DOMAIN')?.toLowerCase().replace(/^\./, '');
  if (domain === undefined) return undefined;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) {
    throw new ConfigError(`SESSION_COOKIE_DOMAIN moet een domeinnaam zijn zoals gemeente.nl, maar is '${domain}'.`);
  }
  const host = publicUrl.hostname;
  if (host !== domain && !host.endsWith(`.${domain}`)) {
    throw new ConfigError(`SESSION_COOKIE_DOMAIN '${domain}' moet het domein van PUBLIC_URL (${host}) omvatten.`);
  }
  if (cookieName?.startsWith('__Host-')) {
    throw new ConfigError(`SESSION_COOKIE_NAME '${cookieName}' kan niet samen met SESSION_COOKIE_DOMAIN.`);
  }
  return domain;
}

/**
 * The WebAuthn relying party (docs/kratos-compatibility.md#passkeys-and-security-keys): `WEBAUTHN_RP_ID` must be the
 * public URL's host or a domain it lies in, since browsers refuse keys for any other; passkeys made for one RP ID do
 * not work under another, so it must stay the same once people have passkeys.
 */
function webauthn(env: Env, publicUrl: URL): { rpId: string; rpDisplayName: string } {
  const host = publicUrl.hostname;
  const rpId = read(env, 'WEBAUTHN_RP_ID')?.toLowerCase() ?? host;
  if (host !== rpId && !host.endsWith(`.${rpId}`)) {
    throw new ConfigError(`WEBAUTHN_RP_ID '${rpId}' moet de host van PUBLIC_URL (${host}) of een domein daarvan zijn.`);
  }
  return { rpId, rpDisplayName: read(env, 'WEBAUTHN_RP_DISPLAY_NAME') ?? host };
}

/** Kratos' own variables for the screens of another UI (`selfservice.flows.<flow>.ui_url` and the default return). */
function uiUrls(env: Env): Partial<Record<UiScreen, URL>> {
  const names: [UiScreen, string][] = [
    ['login', 'SELFSERVICE_FLOWS_LOGIN_UI_URL'],
    ['registration', 'SELFSERVICE_FLOWS_REGISTRATION_UI_URL'],
    ['recovery', 'SELFSERVICE_FLOWS_RECOVERY_UI_URL'],
    ['verification', 'SELFSERVICE_FLOWS_VERIFICATION_UI_URL'],
    ['settings', 'SELFSERVICE_FLOWS_SETTINGS_UI_URL'],
    ['error', 'SELFSERVICE_FLOWS_ERROR_UI_URL'],
    ['defaultReturn', 'SELFSERVICE_DEFAULT_BROWSER_RETURN_URL'],
  ];
  const urls: Partial<Record<UiScreen, URL>> = {};
  for (const [screen, name] of names) {
    const value = optionalUrl(env, name);
    if (value !== undefined) urls[screen] = new URL(value);
  }
  return urls;
}

function optionalUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  return raw === undefined ? undefined : url(name, raw).toString();
}

function duration(env: Env, name: string, fallback: string, options: { zero?: boolean } = {}): number {
  const raw = read(env, name) ?? fallback;
  const value = raw.trim() === '0' && options.zero ? 0 : parseDuration(raw);
  if (value === undefined || (value <= 0 && !(options.zero && value === 0))) {
    throw new ConfigError(`${name} moet een duur zijn zoals 15m, 1h of 30s, maar is '${raw}'.`);
  }
  return value;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(`${name} moet een positief geheel getal zijn, maar is '${raw}'.`);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes|ja)$/i.test(raw)) return true;
  if (/^(false|0|no|nee)$/i.test(raw)) return false;
  throw new ConfigError(`${name} moet true of false zijn, maar is '${raw}'.`);
}

/** Kratos' byte sizes (`hashers.argon2.memory`): 1KB is 1,024 bytes, 1MB 1,024KB. */
const BYTE_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** Kratos' `hashers.argon2` as HASHERS_ARGON2_MEMORY, _ITERATIONS and _PARALLELISM; OWASP's choice by default. */
function argon2Cost(env: Env): Argon2Cost {
  const iterations = positiveInt(env, 'HASHERS_ARGON2_ITERATIONS', OWASP_ARGON2.iterations);
  const parallelism = positiveInt(env, 'HASHERS_ARGON2_PARALLELISM', OWASP_ARGON2.parallelism);
  const raw = read(env, 'HASHERS_ARGON2_MEMORY');
  if (raw === undefined) return { memoryKib: OWASP_ARGON2.memoryKib, iterations, parallelism };
  const match = /^(\d+)(B|KB|MB|GB)$/.exec(raw.trim().toUpperCase());
  const bytes = match ? Number(match[1]) * BYTE_UNITS[match[2]!]! : Number.NaN;
  // argon2 needs at least 8 KiB per lane; 4 GB is far beyond any server's sign-ins.
  if (!(bytes % 1024 === 0 && bytes >= 8 * 1024 * parallelism && bytes <= 4 * 1024 ** 3)) {
    throw new ConfigError(
      `HASHERS_ARGON2_MEMORY moet een geheugengrootte zijn zoals 19MB of 64KB, minstens 8KB per ` +
        `HASHERS_ARGON2_PARALLELISM en hoogstens 4GB, maar is '${raw}'.`,
    );
  }
  return { memoryKib: bytes / 1024, iterations, parallelism };
}

const emailPattern = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

function email(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw !== undefined && !emailPattern.test(raw)) {
    throw new ConfigError(`${name} moet een e-mailadres zijn, maar is '${raw}'.`);
  }
  return raw;
}

/** A secret that Kratos sends in a header (`Authorization: Bearer …`): long, and visible ASCII only. */
function webhookSecret(env: Env): string | undefined {
  const raw = read(env, 'ORY_WEBHOOK_SECRET');
  if (raw !== undefined && !/^[\x21-\x7e]{32,}$/.test(raw)) {
    throw new ConfigError(
      'ORY_WEBHOOK_SECRET moet minstens 32 tekens lang zijn, zonder spaties en met alleen gewone (ASCII-)tekens.',
    );
  }
  return raw;
}

/** `SECRETS_CIPHER`: comma-separated secrets of at least 32 characters, the newest first. */
function cipherSecrets(env: Env, fallback: string): string[] {
  const raw = read(env, 'SECRETS_CIPHER');
  if (raw === undefined) return [fallback];
  const secrets = raw.split(',').map((secret) => secret.trim());
  if (secrets.some((secret) => secret.length < 32)) {
    throw new ConfigError(
      'SECRETS_CIPHER moet een of meer geheimen van minstens 32 tekens zijn, gescheiden door komma’s.',
    );
  }
  return secrets;
}

/** `ADMIN_API_TOKEN`: optional; a token anyone could guess protects nothing, so it has at least 32 characters. */
function adminApiToken(env: Env): string | undefined {
  const raw = read(env, 'ADMIN_API_TOKEN');
  if (raw !== undefined && raw.length < 32) {
    throw new ConfigError('ADMIN_API_TOKEN moet minstens 32 tekens lang zijn (bijvoorbeeld: openssl rand -hex 32).');
  }
  return raw;
}

function cookieSecret(env: Env, dataDir: string, production: boolean): string {
  const raw = read(env, 'SECRETS_COOKIE');
  if (raw !== undefined) {
    if (raw.length < 32) throw new ConfigError('SECRETS_COOKIE moet minstens 32 tekens lang zijn.');
    return raw;
  }
  if (production) {
    throw new ConfigError(
      'SECRETS_COOKIE ontbreekt: zet een geheim van minstens 32 tekens als PUBLIC_URL https gebruikt.',
    );
  }
  // Development: generate once and keep it in DATA_DIR so sessions survive a restart.
  const file = path.join(dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { cookie?: string };
    if (typeof stored.cookie === 'string' && stored.cookie.length >= 32) return stored.cookie;
  } catch {
    // absent or unreadable: generate below
  }
  const generated = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ cookie: generated }), { mode: 0o600 });
  return generated;
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const listenPort = port(env, 'PORT', 4455);
  const adminHost = read(env, 'ADMIN_HOST') ?? '127.0.0.1';
  const adminPort = port(env, 'ADMIN_PORT', 4456);
  if (listenPort === adminPort) throw new ConfigError(`PORT en ADMIN_PORT moeten verschillen (beide ${listenPort}).`);
  const dataDir = path.resolve(read(env, 'DATA_DIR') ?? './data');
  const publicUrl = url('PUBLIC_URL', read(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${listenPort}`);
  const adminUrl = new URL(`http://${adminHost.includes(':') ? `[${adminHost}]` : adminHost}:${adminPort}`);
  const production = publicUrl.protocol === 'https:';

  const databaseUrl = read(env, 'DATABASE_URL') ?? path.join(dataDir, 'portaal.sqlite');
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !/^(postgres|postgresql|sqlite|file):\/\//i.test(databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL moet een postgres://-URL of een pad naar een SQLite-bestand zijn, maar is '${databaseUrl}'.`,
    );
  }

  const smtpUrl = read(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]+/i.test(smtpUrl)) {
    throw new ConfigError(`SMTP_URL moet met smtp:// of smtps:// beginnen, maar is '${smtpUrl}'.`);
  }

  const allowedReturnUrls = (read(env, 'ALLOWED_RETURN_URLS') ?? publicUrl.toString())
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => url('ALLOWED_RETURN_URLS', entry));
  // The OpenID Connect provider sends people to sign in with its interaction as the return target
  // (docs/architecture.md#single-sign-on-for-the-data-services).
  allowedReturnUrls.push(new URL(`${publicUrl.href.replace(/\/$/, '')}/oidc/interaction/`));

  const hibp = read(env, 'HIBP_URL');
  const backend = read(env, 'IDENTITY_BACKEND') ?? 'embedded';
  if (backend !== 'embedded' && backend !== 'ory') {
    throw new ConfigError(`IDENTITY_BACKEND moet 'embedded' of 'ory' zijn, maar is '${backend}'.`);
  }
  const oryUrl = (name: string) => {
    const value = read(env, name);
    if (value === undefined)
      throw new ConfigError(`${name} ontbreekt: IDENTITY_BACKEND=ory heeft de adressen van Kratos en Keto nodig.`);
    return url(name, value);
  };
  const ory =
    backend === 'ory'
      ? {
          kratosPublicUrl: oryUrl('KRATOS_PUBLIC_URL'),
          kratosAdminUrl: oryUrl('KRATOS_ADMIN_URL'),
          ketoReadUrl: oryUrl('KETO_READ_URL'),
          ketoWriteUrl: oryUrl('KETO_WRITE_URL'),
        }
      : undefined;
  const whoamiAal = read(env, 'SESSION_WHOAMI_REQUIRED_AAL') ?? 'highest_available';
  if (whoamiAal !== 'highest_available' && whoamiAal !== 'aal1') {
    throw new ConfigError(
      `SESSION_WHOAMI_REQUIRED_AAL moet 'highest_available' of 'aal1' zijn, maar is '${whoamiAal}'.`,
    );
  }
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL moet een van fatal, error, warn, info, debug, trace of silent zijn, maar is '${logLevel}'.`,
    );
  }

  const allowlist = (read(env, 'DASHBOARD_ALLOWLIST') ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of allowlist) {
    if (!emailPattern.test(entry))
      throw new ConfigError(`DASHBOARD_ALLOWLIST bevat '${entry}', dat geen e-mailadres is.`);
  }

  let oidc: OidcSettings;
  try {
    oidc = readOidcSettings(env);
  } catch (error) {
    if (error instanceof OidcSettingError) throw new ConfigError(error.message);
    throw error;
  }

  const cookie = cookieSecret(env, dataDir, production);
  return {
    trustedProxies: trustedProxies(env),
    oidc,
    cipherSecrets: cipherSecrets(env, cookie),
    adminApiToken: adminApiToken(env),
    host,
    port: listenPort,
    adminHost,
    adminPort,
    dataDir,
    databaseUrl,
    logLevel,
    identityBackend: backend,
    ory,
    oryWebhookSecret: ory ? webhookSecret(env) : undefined,
    supportEmail: email(env, 'SUPPORT_EMAIL'),
    feedbackEmail: email(env, 'FEEDBACK_EMAIL'),
    brand: { title: read(env, 'PORTAL_TITLE'), description: read(env, 'PORTAL_DESCRIPTION') },
    statements: {
      accessibility: optionalUrl(env, 'ACCESSIBILITY_STATEMENT_URL'),
      privacy: optionalUrl(env, 'PRIVACY_STATEMENT_URL'),
    },
    catalogueFile: read(env, 'CATALOGUE_FILE'),
    auditRetentionMs: duration(env, 'AUDIT_RETENTION', '8760h'),
    shutdown: {
      drainMs: duration(env, 'SHUTDOWN_DRAIN', '5s', { zero: true }),
      timeoutMs: duration(env, 'SHUTDOWN_TIMEOUT', '15s'),
    },
    dashboardAllowlist: allowlist,
    idp: {
      publicUrl,
      adminUrl,
      allowedReturnUrls,
      registrationEnabled: bool(env, 'REGISTRATION_ENABLED', false),
      whoamiRequiredAal: whoamiAal,
      cookieSecret: cookie,
      mail: {
        smtpUrl,
        from: read(env, 'MAIL_FROM') ?? 'Datavoorzieningen Portaal <no-reply@localhost>',
        leaseMs: duration(env, 'MAIL_SEND_LEASE', '60s'),
      },
      hibpUrl: hibp === undefined ? undefined : url('HIBP_URL', hibp),
      lifespans: {
        flowMs: duration(env, 'FLOW_LIFESPAN', '1h'),
        codeMs: duration(env, 'CODE_LIFESPAN', '15m'),
        invitationMs: duration(env, 'INVITATION_LIFESPAN', '72h'),
        sessionMs: duration(env, 'SESSION_LIFESPAN', '24h'),
        sessionIdleMs: duration(env, 'SESSION_IDLE_TIMEOUT', '30m'),
        privilegedSessionMs: duration(env, 'PRIVILEGED_SESSION_MAX_AGE', '15m'),
      },
      throttling: {
        maxFailures: positiveInt(env, 'LOGIN_MAX_FAILURES', 10),
        lockMs: duration(env, 'LOGIN_LOCK_DURATION', '15m'),
        maxFailuresPerAddress: positiveInt(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 100),
      },
      password: {
        minLength: 8,
        hashConcurrency: positiveInt(env, 'HASH_CONCURRENCY', 4),
        hashQueueLimit: positiveInt(env, 'HASH_QUEUE_LIMIT', 64),
        argon2: argon2Cost(env),
      },
      totpIssuer: read(env, 'TOTP_ISSUER') ?? publicUrl.hostname,
      webauthn: webauthn(env, publicUrl),
      uiUrls: uiUrls(env),
      sessionCookieName: sessionCookieName(env, publicUrl),
      sessionCookieDomain: sessionCookieDomain(env, publicUrl, read(env, 'SESSION_COOKIE_NAME')),
    },
  };
}
