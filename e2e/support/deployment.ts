import { startPortaal, type Portaal } from './portaal.js';
import { startRouteProxy } from './route-proxy.js';

/**
 * The Users API under test, with the identity backend chosen by TEST_IDENTITY_BACKEND:
 * - `embedded` (default): one `portaal` with its own identity provider and tuple store.
 * - `ory`: a `portaal` with IDENTITY_BACKEND=ory whose Kratos public/admin and Keto read/write URLs point, through
 *   four proxies that each pass only their own API's routes, at a second `portaal` that plays Kratos and Keto.
 * Sign-in flows, the admin listener and CLI commands on identities go to the identity side (`publicUrl`,
 * `adminUrl`, `env`); `/api`, its mails and its CLI commands go to the portal side (`apiUrl`, `mail`, `portalEnv`).
 */
export interface Deployment extends Portaal {
  apiUrl: string;
  portalEnv: Record<string, string>;
  backend: 'embedded' | 'ory';
}

export async function startDeployment(
  options: {
    args?: string[];
    /** Overrides TEST_IDENTITY_BACKEND, for a file that tests one backend only. */
    backend?: 'embedded' | 'ory';
    /** More environment for the portal side (the one that serves `/api`) with the Ory backend. */
    portalEnv?: Record<string, string>;
  } = {},
): Promise<Deployment> {
  const backend = options.backend ?? (process.env.TEST_IDENTITY_BACKEND === 'ory' ? 'ory' : 'embedded');
  if (backend === 'embedded') {
    const portaal = await startPortaal({ args: options.args });
    return { ...portaal, apiUrl: portaal.publicUrl, portalEnv: portaal.env, backend };
  }
  // Kratos' `session.whoami.required_aal: aal1`, which the Ory adapter needs (see the README).
  const identities = await startPortaal({ args: options.args, env: { SESSION_WHOAMI_REQUIRED_AAL: 'aal1' } });
  const proxies = await Promise.all([
    startRouteProxy(identities.publicUrl, [/^\/self-service\//, /^\/sessions(\/|$)/, /^\/schemas(\/|$)/]),
    startRouteProxy(identities.adminUrl, [
      /^\/admin\/identities(\/|$)/,
      /^\/admin\/recovery\//,
      /^\/admin\/sessions(\/|$)/,
    ]),
    startRouteProxy(identities.adminUrl, [/^\/relation-tuples(\/|$)/, /^\/namespaces$/]),
    startRouteProxy(identities.adminUrl, [/^\/admin\/relation-tuples$/]),
  ]);
  const [kratosPublic, kratosAdmin, ketoRead, ketoWrite] = proxies;
  const portal = await startPortaal({
    env: {
      IDENTITY_BACKEND: 'ory',
      KRATOS_PUBLIC_URL: kratosPublic!.url,
      KRATOS_ADMIN_URL: kratosAdmin!.url,
      KETO_READ_URL: ketoRead!.url,
      KETO_WRITE_URL: ketoWrite!.url,
      CATALOGUE_FILE: new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url).pathname,
      ...options.portalEnv,
    },
  });
  return {
    ...identities,
    apiUrl: portal.publicUrl,
    portalEnv: portal.env,
    mail: portal.mail,
    backend,
    output: () => `${identities.output()}\n--- portal ---\n${portal.output()}`,
    async stop() {
      // Everything stops, also when the portal reports a fault (a request answered twice).
      try {
        await portal.stop();
      } finally {
        await Promise.all(proxies.map((p) => p.close()));
        await identities.stop();
      }
    },
  };
}
