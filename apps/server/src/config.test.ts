import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dirs: string[] = [];
/** An environment with its own data folder, so that the development cookie secret lands there. */
function env(values: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaal-config-'));
  dirs.push(dataDir);
  return { DATA_DIR: dataDir, ...values };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const refusal = (values: Record<string, string>) => {
  try {
    loadConfig(env(values));
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('loadConfig', () => {
  it('runs on one machine without any setting: local ports, SQLite in the data folder, documented lifetimes', () => {
    const values = env();
    const config = loadConfig(values);
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4455,
      adminPort: 4456,
      identityBackend: 'embedded',
      ory: undefined,
      oryWebhookSecret: undefined,
      dashboardAllowlist: [],
    });
    expect(config.databaseUrl).toBe(path.join(values.DATA_DIR, 'portaal.sqlite'));
    expect(config.idp.publicUrl.toString()).toBe('http://127.0.0.1:4455/');
    expect(config.idp.lifespans).toEqual({
      flowMs: 3_600_000,
      codeMs: 900_000,
      invitationMs: 259_200_000,
      sessionMs: 86_400_000,
      sessionIdleMs: 1_800_000,
      privilegedSessionMs: 900_000,
    });
    expect(config.statements).toEqual({ accessibility: undefined, privacy: undefined });
    expect(config.shutdown).toEqual({ drainMs: 5_000, timeoutMs: 15_000 });
    expect(config.auditRetentionMs).toBe(365 * 24 * 3_600_000);
  });

  it("reads Kratos' UI locations for another UI, and leaves the portal's paths otherwise", () => {
    expect(loadConfig(env()).idp.uiUrls).toEqual({});
    const config = loadConfig(
      env({
        SELFSERVICE_FLOWS_LOGIN_UI_URL: 'https://ui.voorbeeldstad.nl/inloggen',
        SELFSERVICE_DEFAULT_BROWSER_RETURN_URL: 'https://ui.voorbeeldstad.nl/',
      }),
    );
    expect(config.idp.uiUrls?.login?.toString()).toBe('https://ui.voorbeeldstad.nl/inloggen');
    expect(config.idp.uiUrls?.defaultReturn?.toString()).toBe('https://ui.voorbeeldstad.nl/');
    expect(refusal({ SELFSERVICE_FLOWS_ERROR_UI_URL: 'fouten' })).toMatch(
      /^SELFSERVICE_FLOWS_ERROR_UI_URL moet een volledige URL/,
    );
  });

  it('takes a session cookie name, a __Host- one only behind https', () => {
    const https = {
      PUBLIC_URL: 'https://portaal.example.nl',
      SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang',
    };
    expect(loadConfig(env({ ...https, SESSION_COOKIE_NAME: '__Host-portaal' })).idp.sessionCookieName).toBe(
      '__Host-portaal',
    );
    expect(refusal({ SESSION_COOKIE_NAME: '__Host-portaal' })).toBe(
      "SESSION_COOKIE_NAME '__Host-portaal' werkt alleen als PUBLIC_URL met https:// begint.",
    );
    expect(refusal({ SESSION_COOKIE_NAME: 'sessie;x' })).toMatch(/^SESSION_COOKIE_NAME mag alleen/);
  });

  it('takes the credential keys from SECRETS_CIPHER, newest first, or else the cookie secret', () => {
    const cookie = 'een-geheim-van-minstens-32-tekens-lang';
    expect(loadConfig(env({ SECRETS_COOKIE: cookie })).cipherSecrets).toEqual([cookie]);
    const newest = 'de-nieuwste-sleutel-van-minstens-32-tekens';
    const older = 'een-oudere-sleutel-van-ook-minstens-32-tekens';
    expect(loadConfig(env({ SECRETS_CIPHER: `${newest}, ${older}` })).cipherSecrets).toEqual([newest, older]);
    expect(refusal({ SECRETS_CIPHER: `${newest},kort` })).toMatch(/^SECRETS_CIPHER moet een of meer geheimen/);
  });

  it('takes an optional ADMIN_API_TOKEN of at least 32 characters', () => {
    expect(loadConfig(env()).adminApiToken).toBeUndefined();
    const token = 'een-beheertoken-van-minstens-32-tekens';
    expect(loadConfig(env({ ADMIN_API_TOKEN: token })).adminApiToken).toBe(token);
    expect(refusal({ ADMIN_API_TOKEN: 'geheim' })).toMatch(/^ADMIN_API_TOKEN moet minstens 32 tekens lang zijn/);
  });

  it('shares the session cookie with a parent domain of the public URL only', () => {
    const portal = {
      PUBLIC_URL: 'https://portaal.gemeente.nl',
      SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang',
    };
    expect(loadConfig(env(portal)).idp.sessionCookieDomain).toBeUndefined();
    expect(loadConfig(env({ ...portal, SESSION_COOKIE_DOMAIN: '.Gemeente.nl' })).idp.sessionCookieDomain).toBe(
      'gemeente.nl',
    );
    const refused = (values: Record<string, string>) => refusal({ ...portal, ...values });
    expect(refused({ SESSION_COOKIE_DOMAIN: 'andere-gemeente.nl' })).toBe(
      "SESSION_COOKIE_DOMAIN 'andere-gemeente.nl' moet het domein van PUBLIC_URL (portaal.gemeente.nl) omvatten.",
    );
    expect(refused({ SESSION_COOKIE_DOMAIN: 'nl;x' })).toMatch(/^SESSION_COOKIE_DOMAIN moet een domeinnaam zijn/);
    expect(refused({ SESSION_COOKIE_DOMAIN: 'gemeente.nl', SESSION_COOKIE_NAME: '__Host-portaal' })).toBe(
      "SESSION_COOKIE_NAME '__Host-portaal' kan niet samen met SESSION_COOKIE_DOMAIN.",
    );
  });

  it('takes the WebAuthn relying party from the public URL, or a domain it lies in', () => {
    const portal = {
      PUBLIC_URL: 'https://portaal.gemeente.nl',
      SECRETS_COOKIE: 'een-geheim-van-minstens-32-tekens-lang',
    };
    expect(loadConfig(env(portal)).idp.webauthn).toEqual({
      rpId: 'portaal.gemeente.nl',
      rpDisplayName: 'portaal.gemeente.nl',
    });
    expect(
      loadConfig(env({ ...portal, WEBAUTHN_RP_ID: 'Gemeente.nl', WEBAUTHN_RP_DISPLAY_NAME: 'Datavoorzieningen' })).idp
        .webauthn,
    ).toEqual({ rpId: 'gemeente.nl', rpDisplayName: 'Datavoorzieningen' });
    expect(refusal({ ...portal, WEBAUTHN_RP_ID: 'andere-gemeente.nl' })).toBe(
      "WEBAUTHN_RP_ID 'andere-gemeente.nl' moet de host van PUBLIC_URL (portaal.gemeente.nl) of een domein " +
        'daarvan zijn.',
    );
  });

  it('drains for the given time on SIGTERM, or not at all with 0', () => {
    expect(loadConfig(env({ SHUTDOWN_DRAIN: '0', SHUTDOWN_TIMEOUT: '30s' })).shutdown).toEqual({
      drainMs: 0,
      timeoutMs: 30_000,
    });
    expect(refusal({ SHUTDOWN_TIMEOUT: '0' })).toBe(
      "SHUTDOWN_TIMEOUT moet een duur zijn zoals 15m, 1h of 30s, maar is '0'.",
    );
  });

  it("hashes at OWASP's argon2id cost unless HASHERS_ARGON2_* say otherwise, in Kratos' byte sizes", () => {
    expect(loadConfig(env()).idp.password.argon2).toEqual({ memoryKib: 19456, iterations: 2, parallelism: 1 });
    const light = { HASHERS_ARGON2_MEMORY: '64KB', HASHERS_ARGON2_ITERATIONS: '1' };
    expect(loadConfig(env(light)).idp.password.argon2).toEqual({ memoryKib: 64, iterations: 1, parallelism: 1 });
    const large = { HASHERS_ARGON2_MEMORY: '46MB', HASHERS_ARGON2_ITERATIONS: '1', HASHERS_ARGON2_PARALLELISM: '2' };
    expect(loadConfig(env(large)).idp.password.argon2).toEqual({ memoryKib: 47104, iterations: 1, parallelism: 2 });
    for (const memory of ['19', '4KB', '1000B', '5GB', 'veel']) {
      expect(refusal({ HASHERS_ARGON2_MEMORY: memory })).toBe(
        'HASHERS_ARGON2_MEMORY moet een geheugengrootte zijn zoals 19MB of 64KB, minstens 8KB per ' +
          `HASHERS_ARGON2_PARALLELISM en hoogstens 4GB, maar is '${memory}'.`,
      );
    }
    expect(refusal({ HASHERS_ARGON2_MEMORY: '8KB', HASHERS_ARGON2_PARALLELISM: '2' })).toMatch(/minstens 8KB per/);
    expect(refusal({ HASHERS_ARGON2_ITERATIONS: '0' })).toBe(
      "HASHERS_ARGON2_ITERATIONS moet een positief geheel getal zijn, maar is '0'.",
    );
  });

  it('trusts no proxy by default, and takes addresses, CIDR ranges and the three keywords', () => {
    expect(loadConfig(env({})).trustedProxies).toEqual([]);
    const proxies = '10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,::1,uniquelocal,loopback';
    expect(loadConfig(env({ TRUSTED_PROXIES: proxies })).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      '::1',
      'uniquelocal',
      'loopback',
    ]);
    for (const wrong of ['10.0.0.0/33', 'proxy.voorbeeldstad.nl', '::1/129', '10.0.0.1/8/8', '*']) {
      expect(refusal({ TRUSTED_PROXIES: `127.0.0.1,${wrong}` })).toBe(
        `TRUSTED_PROXIES bevat '${wrong}', dat geen IP-adres, adresbereik (CIDR) of loopback, linklocal of ` +
          'uniquelocal is.',
      );
    }
  });

  it('keeps the generated development cookie secret in the data folder, so sessions survive a restart', () => {
    const values = env();
    const first = loadConfig(values).idp.cookieSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(values).idp.cookieSecret).toBe(first);
    expect((fs.statSync(path.join(values.DATA_DIR, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');
  });

  it('demands a cookie secret of its own behind https', () => {
    expect(refusal({ PUBLIC_URL: 'https://portaal.voorbeeldstad.nl' })).toBe(
      'SECRETS_COOKIE ontbreekt: zet een geheim van minstens 32 tekens als PUBLIC_URL https gebruikt.',
    );
    expect(refusal({ SECRETS_COOKIE: 'te-kort' })).toBe('SECRETS_COOKIE moet minstens 32 tekens lang zijn.');
  });

  it('reads the links to the accessibility and privacy statements', () => {
    const config = loadConfig(
      env({
        ACCESSIBILITY_STATEMENT_URL: 'https://www.voorbeeldstad.nl/toegankelijkheid',
        PRIVACY_STATEMENT_URL: 'https://www.voorbeeldstad.nl/privacy',
      }),
    );
    expect(config.statements).toEqual({
      accessibility: 'https://www.voorbeeldstad.nl/toegankelijkheid',
      privacy: 'https://www.voorbeeldstad.nl/privacy',
    });
    expect(refusal({ ACCESSIBILITY_STATEMENT_URL: 'javascript:alert(1)' })).toBe(
      "ACCESSIBILITY_STATEMENT_URL moet met http:// of https:// beginnen, maar is 'javascript:alert(1)'.",
    );
    expect(refusal({ PRIVACY_STATEMENT_URL: 'privacy.html' })).toMatch(
      /^PRIVACY_STATEMENT_URL moet een volledige URL zijn/,
    );
  });

  it("reads the installation's own title and description for the header of every page, unset by default", () => {
    expect(loadConfig(env()).brand).toEqual({ title: undefined, description: undefined });
    const config = loadConfig(env({ PORTAL_TITLE: ' Datavoorzieningen Súdwest-Fryslân ', PORTAL_DESCRIPTION: 'Data' }));
    expect(config.brand).toEqual({ title: 'Datavoorzieningen Súdwest-Fryslân', description: 'Data' });
  });

  it('names the variable and the value it refuses, in Dutch', () => {
    expect(refusal({ PORT: '70000' })).toBe("PORT moet een poortnummer tussen 1 en 65535 zijn, maar is '70000'.");
    expect(refusal({ PORT: '5000', ADMIN_PORT: '5000' })).toBe('PORT en ADMIN_PORT moeten verschillen (beide 5000).');
    expect(refusal({ DATABASE_URL: 'mysql://db/portaal' })).toBe(
      "DATABASE_URL moet een postgres://-URL of een pad naar een SQLite-bestand zijn, maar is 'mysql://db/portaal'.",
    );
    expect(refusal({ SMTP_URL: 'mail.voorbeeldstad.nl' })).toBe(
      "SMTP_URL moet met smtp:// of smtps:// beginnen, maar is 'mail.voorbeeldstad.nl'.",
    );
    expect(refusal({ SESSION_IDLE_TIMEOUT: 'een uur' })).toBe(
      "SESSION_IDLE_TIMEOUT moet een duur zijn zoals 15m, 1h of 30s, maar is 'een uur'.",
    );
    expect(refusal({ LOGIN_MAX_FAILURES: '0' })).toBe(
      "LOGIN_MAX_FAILURES moet een positief geheel getal zijn, maar is '0'.",
    );
    expect(refusal({ REGISTRATION_ENABLED: 'misschien' })).toBe(
      "REGISTRATION_ENABLED moet true of false zijn, maar is 'misschien'.",
    );
    expect(refusal({ SUPPORT_EMAIL: 'helpdesk' })).toBe("SUPPORT_EMAIL moet een e-mailadres zijn, maar is 'helpdesk'.");
    expect(refusal({ LOG_LEVEL: 'luid' })).toBe(
      "LOG_LEVEL moet een van fatal, error, warn, info, debug, trace of silent zijn, maar is 'luid'.",
    );
    expect(refusal({ DASHBOARD_ALLOWLIST: 'anna@voorbeeldstad.nl, bert' })).toBe(
      "DASHBOARD_ALLOWLIST bevat 'bert', dat geen e-mailadres is.",
    );
    expect(refusal({ IDENTITY_BACKEND: 'keycloak' })).toBe(
      "IDENTITY_BACKEND moet 'embedded' of 'ory' zijn, maar is 'keycloak'.",
    );
    expect(refusal({ IDENTITY_BACKEND: 'ory' })).toBe(
      'KRATOS_PUBLIC_URL ontbreekt: IDENTITY_BACKEND=ory heeft de adressen van Kratos en Keto nodig.',
    );
  });

  it("reads Kratos' login web_hook secret with IDENTITY_BACKEND=ory only, and refuses a weak one", () => {
    const ory = {
      IDENTITY_BACKEND: 'ory',
      KRATOS_PUBLIC_URL: 'http://kratos:4433',
      KRATOS_ADMIN_URL: 'http://kratos:4434',
      KETO_READ_URL: 'http://keto:4466',
      KETO_WRITE_URL: 'http://keto:4467',
    };
    const secret = 'een-gedeeld-geheim-van-ruim-32-tekens';
    expect(loadConfig(env(ory)).oryWebhookSecret).toBeUndefined();
    expect(loadConfig(env({ ...ory, ORY_WEBHOOK_SECRET: ` ${secret} ` })).oryWebhookSecret).toBe(secret);
    // The embedded provider audits sign-ins itself: there is no hook to receive.
    expect(loadConfig(env({ ORY_WEBHOOK_SECRET: secret })).oryWebhookSecret).toBeUndefined();
    const weak =
      'ORY_WEBHOOK_SECRET moet minstens 32 tekens lang zijn, zonder spaties en met alleen gewone (ASCII-)tekens.';
    expect(refusal({ ...ory, ORY_WEBHOOK_SECRET: 'te-kort' })).toBe(weak);
    expect(refusal({ ...ory, ORY_WEBHOOK_SECRET: 'een gedeeld geheim van ruim 32 tekens' })).toBe(weak);
  });

  it('accepts yes and no in Dutch and English, and lower-cases the dashboard allow-list', () => {
    expect(loadConfig(env({ REGISTRATION_ENABLED: 'ja' })).idp.registrationEnabled).toBe(true);
    expect(loadConfig(env({ REGISTRATION_ENABLED: 'false' })).idp.registrationEnabled).toBe(false);
    expect(
      loadConfig(env({ DASHBOARD_ALLOWLIST: ' Anna@Voorbeeldstad.nl ,bert@voorbeeldstad.nl' })).dashboardAllowlist,
    ).toEqual(['anna@voorbeeldstad.nl', 'bert@voorbeeldstad.nl']);
  });
});
