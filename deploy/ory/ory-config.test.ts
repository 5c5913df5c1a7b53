import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UI_PATHS } from '@portaal/idp';
import { PRODUCT_NAMESPACES } from '@portaal/relations';
import { identitySchema } from '../../packages/idp/src/identities/identity-schema.js';
import { KRATOS_LOGIN_HOOK_PATH } from '../../packages/users-api/src/routes/kratos-hook-routes.js';

/**
 * Kratos and Keto cannot run here (no container runtime, no Go toolchain), so their configuration is checked as far
 * as it can be: against their own published configuration schemas (deploy/ory/schemas/), and against the portal's
 * source for every value the portal relies on. deploy/ory/README.md says what was not run.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const yamlOf = (file: string) => parse(read(file)) as Record<string, any>;
const jsonOf = (file: string) => JSON.parse(read(file)) as Record<string, any>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const kratos = yamlOf('deploy/ory/kratos.yml');
const keto = yamlOf('deploy/ory/keto.yml');

/** A validator for one of Ory's configuration schemas; their shared `ory://` logging and tracing parts pass as is. */
function validatorFor(file: string) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const id of ['ory://logging-config', 'ory://tracing-config']) ajv.addSchema({ $id: id }, id);
  const validate = ajv.compile(jsonOf(file));
  return (config: unknown) =>
    validate(config) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
const kratosProblems = validatorFor('deploy/ory/schemas/kratos-config.schema.json');
const ketoProblems = validatorFor('deploy/ory/schemas/keto-config.schema.json');

describe('kratos.yml and keto.yml against Ory’s configuration schemas', () => {
  it('kratos.yml is a valid Kratos configuration', () => {
    expect(kratosProblems(kratos)).toEqual([]);
  });

  it('keto.yml is a valid Keto configuration', () => {
    expect(ketoProblems(keto)).toEqual([]);
  });

  it('would notice a mistake: a wrong value and an unknown key are refused', () => {
    const broken = structuredClone(kratos);
    broken.session.whoami.required_aal = 'aal3';
    broken.session.cookie.nmae = 'x';
    const found = kratosProblems(broken).join('\n');
    expect(found).toContain('/session/whoami/required_aal must be equal to one of the allowed values');
    expect(found).toContain('must NOT have additional properties');
    expect(ketoProblems({ ...keto, namespaces: { location: 'file:///x.ts', strict: true } })).not.toEqual([]);
  });
});

/** The default the portal's configuration loader gives a port variable: `port(env, 'NAME', 4455)`. */
const portalDefaultPort = (name: string) =>
  Number(new RegExp(`port\\(env, '${name}', (\\d+)\\)`).exec(read('apps/server/src/config.ts'))?.[1]);

/** The defaults the portal's configuration loader gives a duration variable: `duration(env, 'NAME', '1h')`. */
const portalDefault = (name: string) =>
  new RegExp(`duration\\(env, '${name}', '([^']+)'\\)`).exec(read('apps/server/src/config.ts'))?.[1];

describe('kratos.yml gives the portal what it relies on', () => {
  const publicUrl = new URL(kratos.serve.public.base_url);
  const flows = kratos.selfservice.flows;

  it('serves every screen and the default return on the public URL, at the portal’s own routes', () => {
    const screens: Record<string, string> = {
      login: flows.login.ui_url,
      registration: flows.registration.ui_url,
      recovery: flows.recovery.ui_url,
      verification: flows.verification.ui_url,
      settings: flows.settings.ui_url,
      error: flows.error.ui_url,
      defaultReturn: kratos.selfservice.default_browser_return_url,
    };
    for (const [screen, url] of Object.entries(screens)) {
      expect(new URL(url).origin, screen).toBe(publicUrl.origin);
      expect(new URL(url).pathname, screen).toBe(UI_PATHS[screen as keyof typeof UI_PATHS]);
    }
    expect(kratos.selfservice.allowed_return_urls).toEqual([publicUrl.origin]);
  });

  it('answers whoami at aal1 and keeps settings at the highest available level', () => {
    expect(kratos.session.whoami.required_aal).toBe('aal1');
    expect(flows.settings.required_aal).toBe('highest_available');
    expect(kratos.session.cookie.name).toBe('ory_kratos_session');
    expect(read('packages/idp/src/http/cookies.ts')).toContain("SESSION_COOKIE = 'ory_kratos_session'");
  });

  it('enables just the methods the portal uses: password, app, backup codes, keys, passkeys, codes, links', () => {
    const methods = kratos.selfservice.methods;
    const enabled = Object.keys(methods).filter((name) => methods[name].enabled === true);
    expect(enabled.sort()).toEqual([
      'code',
      'link',
      'lookup_secret',
      'passkey',
      'password',
      'profile',
      'totp',
      'webauthn',
    ]);
    // Security keys stay a second factor; passkeys are the passwordless way, both for the portal's own host.
    expect(methods.webauthn.config.passwordless).toBe(false);
    for (const method of [methods.webauthn, methods.passkey]) {
      expect(method.config.rp.id).toBe(publicUrl.hostname);
      expect(method.config.rp.origins).toEqual([publicUrl.origin]);
    }
    expect(methods.code.passwordless_enabled).toBe(false);
    expect(methods.code.mfa_enabled).toBe(false);
    // The Users API's invitations and recovery mails are admin recovery links (ory-backend.ts recoveryLink).
    expect(read('packages/users-api/src/adapters/ory-backend.ts')).toContain('createRecoveryLinkForIdentity');
    expect(flows.recovery.use).toBe('code');
    expect(flows.verification.use).toBe('code');
    expect(flows.registration.enabled).toBe(false);
  });

  it('ends the other sessions after a recovery and keeps the flow transitions the web app follows', () => {
    expect(flows.recovery.after.hooks).toEqual([{ hook: 'revoke_active_sessions' }]);
    expect(kratos.feature_flags.use_continue_with_transitions).toBe(false);
  });

  it('reports every successful sign-in step to the portal’s audit log through a web_hook', () => {
    // One list for all methods: the password step and the second factor alike, as the embedded provider audits them.
    expect(Object.keys(flows.login.after)).toEqual(['hooks']);
    expect(flows.login.after.hooks).toHaveLength(1);
    const [hook] = flows.login.after.hooks;
    expect(hook.hook).toBe('web_hook');
    const url = new URL(hook.config.url);
    expect(url.pathname).toBe(`/api${KRATOS_LOGIN_HOOK_PATH}`);
    expect(Number(url.port)).toBe(portalDefaultPort('PORT'));
    expect(hook.config.method).toBe('POST');
    // The template beside this file, mounted where kratos.yml and the identity schema are (deploy/ory/README.md).
    expect(hook.config.body).toBe('file:///etc/config/kratos/login-audit.jsonnet');
    expect(statSync(path.join(root, 'deploy/ory/login-audit.jsonnet')).isFile()).toBe(true);
    expect(path.dirname(new URL(hook.config.body).pathname)).toBe(
      path.dirname(new URL(kratos.identity.schemas[0].url).pathname),
    );
    // The bearer token the endpoint compares with ORY_WEBHOOK_SECRET, a placeholder here.
    expect(hook.config.auth).toEqual({
      type: 'api_key',
      config: { name: 'Authorization', value: expect.stringMatching(/^Bearer CHANGE-ME/), in: 'header' },
    });
    expect(read('apps/server/src/config.ts')).toContain("'ORY_WEBHOOK_SECRET'");
    // In the background: a failing audit call never stops a sign-in.
    expect(hook.config.response).toEqual({ ignore: true });
    // The environment variable deploy/ory/README.md gives the secret with names this very hook (index 0).
    expect(read('deploy/ory/README.md')).toContain('SELFSERVICE_FLOWS_LOGIN_AFTER_HOOKS_0_CONFIG_AUTH_CONFIG_VALUE');
  });

  it('uses the portal’s default lifetimes', () => {
    for (const flow of ['login', 'registration', 'recovery', 'verification', 'settings'])
      expect(flows[flow].lifespan, flow).toBe(portalDefault('FLOW_LIFESPAN'));
    expect(kratos.selfservice.methods.code.config.lifespan).toBe(portalDefault('CODE_LIFESPAN'));
    expect(flows.settings.privileged_session_max_age).toBe(portalDefault('PRIVILEGED_SESSION_MAX_AGE'));
    expect(kratos.session.lifespan).toBe(portalDefault('SESSION_LIFESPAN'));
  });

  it('loads identity.schema.json as the default schema', () => {
    expect(kratos.identity.default_schema_id).toBe('default');
    expect(kratos.identity.schemas).toHaveLength(1);
    expect(kratos.identity.schemas[0].id).toBe('default');
    expect(kratos.identity.schemas[0].url).toMatch(/\/identity\.schema\.json$/);
  });
});

describe('the portal’s Ory URLs in deploy/ory/README.md', () => {
  const readme = read('deploy/ory/README.md');
  const urlOf = (name: string) => new URL(new RegExp(`^\\s*${name}=(\\S+)$`, 'm').exec(readme)![1]!);

  it('are variables the portal reads and point at the ports the two files open', () => {
    const config = read('apps/server/src/config.ts');
    for (const name of ['IDENTITY_BACKEND', 'KRATOS_PUBLIC_URL', 'KRATOS_ADMIN_URL', 'KETO_READ_URL', 'KETO_WRITE_URL'])
      expect(config).toContain(`'${name}'`);
    expect(Number(urlOf('KRATOS_PUBLIC_URL').port)).toBe(kratos.serve.public.port);
    expect(Number(urlOf('KRATOS_ADMIN_URL').port)).toBe(kratos.serve.admin.port);
    expect(urlOf('KRATOS_ADMIN_URL').toString()).toBe(kratos.serve.admin.base_url);
    expect(Number(urlOf('KETO_READ_URL').port)).toBe(keto.serve.read.port);
    expect(Number(urlOf('KETO_WRITE_URL').port)).toBe(keto.serve.write.port);
    expect(urlOf('PUBLIC_URL').origin).toBe(new URL(kratos.serve.public.base_url).origin);
  });
});

/** What in a pattern Go's regexp (RE2, which Kratos validates traits with) refuses or reads otherwise than ECMA. */
const goRegexpProblems = (pattern: string) =>
  [/\\u/, /\\x(?!\{)/, /\(\?[=!]|\(\?<[=!]/, /\\[1-9]/, /\\c/].filter((bad) => bad.test(pattern)).map(String);

describe('identity.schema.json', () => {
  const schema = jsonOf('deploy/ory/identity.schema.json');

  it('is the schema the embedded provider serves at GET /schemas/default', () => {
    expect(schema).toEqual(JSON.parse(JSON.stringify(identitySchema)));
  });

  it('has every trait the portal reads and writes, with the e-mail address as identifier and address', () => {
    const traits = schema.properties.traits;
    expect(traits.required).toEqual(['email']);
    expect(Object.keys(traits.properties).sort()).toEqual(['email', 'name']);
    expect(Object.keys(traits.properties.name.properties).sort()).toEqual(['first', 'last']);
    expect(traits.properties.email['ory.sh/kratos']).toEqual({
      credentials: {
        password: { identifier: true },
        webauthn: { identifier: true },
        passkey: { display_name: true },
        totp: { account_name: true },
      },
      verification: { via: 'email' },
      recovery: { via: 'email' },
    });
    // The Ory adapter maps exactly these traits (toUser and create in ory-backend.ts).
    const adapter = read('packages/users-api/src/adapters/ory-backend.ts');
    expect(adapter).toContain('traits.email');
    expect(adapter).toContain('traits.name?.first');
    expect(adapter).toContain('traits.name?.last');
    expect(adapter).toContain("schema_id: 'default'");
  });

  it('has only patterns that Go’s regexp compiles as JavaScript does', () => {
    const patterns: string[] = [];
    (function collect(node: unknown) {
      if (Array.isArray(node)) node.forEach(collect);
      else if (isObject(node)) {
        if (typeof node.pattern === 'string') patterns.push(node.pattern);
        Object.values(node).forEach(collect);
      }
    })(schema);
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      expect(() => new RegExp(pattern, 'u')).not.toThrow();
      expect(goRegexpProblems(pattern), pattern).toEqual([]);
    }
    // The check itself: the escape the schema once had is caught.
    expect(goRegexpProblems('^(?:[^\\p{Cc}]|\\u200d)*$')).not.toEqual([]);
  });
});

/** The namespaces of an OPL file: each class with its `related` relations and its `permits`. */
function oplNamespaces(source: string): Map<string, { related: string[]; permits: string[] }> {
  const code = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const namespaces = new Map<string, { related: string[]; permits: string[] }>();
  const classes = [...code.matchAll(/class\s+(\w+)\s+implements\s+Namespace\s*\{/g)];
  classes.forEach((match, index) => {
    const body = code.slice(match.index + match[0].length, classes[index + 1]?.index ?? code.length);
    const related = /related\s*:\s*\{([^}]*)\}/.exec(body)?.[1] ?? '';
    const permits = /permits\s*=\s*\{([\s\S]*)\}/.exec(body)?.[1] ?? '';
    namespaces.set(match[1]!, {
      related: [...related.matchAll(/(\w+)\s*:/g)].map((m) => m[1]!),
      permits: [...permits.matchAll(/(\w+)\s*:\s*\(\s*ctx/g)].map((m) => m[1]!),
    });
  });
  return namespaces;
}

/** Every `.ts` file under a folder, tests excepted. */
const sourcesUnder = (folder: string): string[] =>
  readdirSync(path.join(root, folder)).flatMap((name) => {
    const file = `${folder}/${name}`;
    if (statSync(path.join(root, file)).isDirectory()) return sourcesUnder(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });

describe('namespaces.keto.ts', () => {
  const opl = read('deploy/ory/namespaces.keto.ts');
  const namespaces = oplNamespaces(opl);

  it('declares the product’s namespaces, and every relation a namespace uses exists', () => {
    for (const name of PRODUCT_NAMESPACES) expect(namespaces.has(name), name).toBe(true);
    expect([...namespaces.keys()].sort()).toEqual(['User', ...PRODUCT_NAMESPACES].sort());
    for (const [name, { related }] of namespaces) {
      const body = opl.slice(opl.indexOf(`class ${name} `));
      for (const type of related.length ? [...body.matchAll(/:\s*(\w+)\[\]/g)].map((m) => m[1]!) : [])
        expect(namespaces.has(type), `${name}: ${type}`).toBe(true);
    }
  });

  it('never declares a name both as relation and as permission, which Keto would silently half-ignore', () => {
    for (const [name, { related, permits }] of namespaces)
      expect(
        related.filter((r) => permits.includes(r)),
        name,
      ).toEqual([]);
  });

  it('declares every tuple of the data model in docs/architecture.md', () => {
    const tuples = [...read('docs/architecture.md').matchAll(/^\| `(\w+):<[^>]+>(?:_<[^>]+>)?#(\w+)@<user>`/gm)].map(
      (m) => [m[1]!, m[2]!] as const,
    );
    expect(tuples.length).toBeGreaterThanOrEqual(5);
    for (const [namespace, relation] of tuples) {
      const declared = namespaces.get(namespace);
      expect([...(declared?.related ?? []), ...(declared?.permits ?? [])], `${namespace}#${relation}`).toContain(
        relation,
      );
    }
  });

  it('declares every relation the portal’s source writes or reads', () => {
    const source = [...sourcesUnder('packages/users-api/src'), ...sourcesUnder('apps/server/src')].map(read).join('\n');
    const relations = new Set([
      ...[...source.matchAll(/relation(?:: | === )'(\w+)'/g)].map((m) => m[1]!),
      ...[...source.matchAll(/MEMBERSHIP = new Set\(\[([^\]]*)\]\)/g)].flatMap((m) =>
        [...m[1]!.matchAll(/'(\w+)'/g)].map((r) => r[1]!),
      ),
    ]);
    expect([...relations].sort()).toEqual(['access', 'admin', 'issuer']);
    const declared = new Set(
      PRODUCT_NAMESPACES.flatMap((name) => [...namespaces.get(name)!.related, ...namespaces.get(name)!.permits]),
    );
    for (const relation of relations) expect(declared.has(relation), relation).toBe(true);
    expect(namespaces.get('organizations')!.related.sort()).toEqual(['admin', 'issuer']);
  });

  it('computes `access` as the embedded store’s check does: from `issuer`', () => {
    const check = read('packages/relations/src/tuples/check.ts');
    const implied = [...check.matchAll(/(\w+): \{ (\w+): \[([^\]]*)\] \}/g)];
    // A namespace without permissions (`programme`) has nothing to compute.
    const computing = PRODUCT_NAMESPACES.filter((name) => namespaces.get(name)!.permits.length > 0);
    expect(implied.map((m) => m[1]).sort()).toEqual(computing.sort());
    for (const [, namespace, permission, relations] of implied) {
      expect(namespaces.get(namespace!)!.permits).toContain(permission);
      const body = opl.slice(opl.indexOf(`class ${namespace} `));
      const rule = new RegExp(`${permission}: \\(ctx: Context\\): boolean =>([^,]*),`).exec(body)?.[1] ?? '';
      for (const relation of [...relations!.matchAll(/'(\w+)'/g)].map((m) => m[1]!)) {
        // A stored tuple of the permission itself counts outside Keto's strict mode (deploy/ory/README.md).
        if (relation !== permission) expect(rule).toContain(`this.related.${relation}.includes(ctx.subject)`);
      }
    }
    expect(keto.namespaces.experimental_strict_mode).toBe(false);
    expect(keto.namespaces.location).toMatch(/\/namespaces\.keto\.ts$/);
    expect(keto.limit.max_read_depth).toBe(5);
  });
});
