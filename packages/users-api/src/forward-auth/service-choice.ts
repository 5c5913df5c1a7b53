import type { Catalogue, DataService } from '../catalogue/catalogue.js';
import { errors } from '../api-error.js';
import { routedPath } from './routed-path.js';

/** What a forward-auth check says about the data service it is for (docs/architecture.md#forward-authentication). */
export interface ServiceAsked {
  /** `?service=`: a catalogue id, which decides alone. */
  serviceId?: string;
  /** The host the browser asked for, as the proxy forwards it (`X-Forwarded-Host`). */
  forwardedHost?: string;
  /** The scheme of the browser's request (`X-Forwarded-Proto`); https when absent. */
  forwardedProto?: string;
  /**
   * The path and query the browser asked for, raw (`X-Forwarded-Uri`, nginx `$request_uri`), to tell services on one
   * host apart by the path the proxy routes on (`routedPath`).
   */
  forwardedUri?: string;
}

/** The first value of a header a chain of proxies may have made a comma-separated list. */
export const firstValue = (header: string | string[] | undefined): string | undefined => {
  const value = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return value ? value : undefined;
};

/** `host[:port]` as a URL of that scheme spells it: lower case, the scheme's default port left out. */
function hostOf(scheme: string, host: string): string | undefined {
  // Anything but a host and a port (a path, a user, a query, white space) names no host.
  if (/[\s/\\@?#]/.test(host)) return undefined;
  const key = `${scheme}://${host}`;
  if (spelt.has(key)) return spelt.get(key);
  let found: string | undefined;
  try {
    found = new URL(key).host;
  } catch {
    found = undefined;
  }
  // A proxy asks about a handful of hosts again and again; a flood of made-up ones only refills the memo.
  if (spelt.size >= SPELT_HOSTS) spelt.clear();
  spelt.set(key, found);
  return found;
}

/** Hosts as asked, spelt as URLs spell them: a proxy checks every request, and parsing a URL is its largest cost. */
const spelt = new Map<string, string | undefined>();
const SPELT_HOSTS = 1_000;

/** The path the proxy routes `uri` on; without the header, the root. A path read in two ways is refused (400). */
function pathOf(uri: string | undefined): string {
  if (uri === undefined) return '/';
  const routed = routedPath(uri);
  if (!routed.ok) throw errors.servicePathRefused(routed.refused);
  return routed.path;
}

/** A catalogue url's path, compared in the same (decoded) form as a routed path. */
function servicePathOf(url: URL): string {
  const routed = routedPath(url.pathname);
  return routed.ok ? routed.path : url.pathname;
}

/**
 * Whether `path` lies under the service's path as a proxy's prefix routes it: under `/kaart/` lie `/kaart/` and
 * `/kaart/x`, not `/kaart` (nginx's `location /kaart/` answers it with a 301, Traefik's PathPrefix(`/kaart/`) sends
 * it to the root) nor `/kaarten`; under a path without the trailing slash, `/kaart`, lie `/kaart` and `/kaart/x`.
 */
function under(servicePath: string, path: string): boolean {
  if (servicePath.endsWith('/')) return path.startsWith(servicePath);
  return path === servicePath || path.startsWith(`${servicePath}/`);
}

interface OnHost {
  service: DataService;
  servicePath: string;
}

/** Each catalogue's services by the host of their url, made once per catalogue: a proxy checks every request. */
const byHost = new WeakMap<Catalogue, Map<string, OnHost[]>>();

function servicesByHost(catalogue: Catalogue): Map<string, OnHost[]> {
  let index = byHost.get(catalogue);
  if (!index) {
    index = new Map();
    for (const service of catalogue.services.filter((s) => s.forwardAuth)) {
      const url = new URL(service.url);
      const onHost = index.get(url.host) ?? [];
      onHost.push({ service, servicePath: servicePathOf(url) });
      index.set(url.host, onHost);
    }
    byHost.set(catalogue, index);
  }
  return index;
}

/**
 * The catalogue service a forward-auth check is for, among those open to it (`forwardAuth`): the one `?service=` names,
 * or else the one whose `url` has the forwarded host; several services on one host are told apart by the longest path
 * of their `url` that the forwarded path, as the proxy routes it, lies under. Unknown → 404, nothing to go by or no
 * single answer → 400, a path that can be read in two ways → 400 `service_path_refused`; never a guess. Where the host
 * has one service, at its root, the path decides nothing and is not read: a service of its own may use `%2f` in its
 * paths.
 */
export function chooseService(catalogue: Catalogue, asked: ServiceAsked): DataService {
  if (asked.serviceId !== undefined) {
    const named = catalogue.services.find((s) => s.id === asked.serviceId && s.forwardAuth);
    if (!named) throw errors.serviceNotFound();
    return named;
  }
  if (!asked.forwardedHost) throw errors.serviceNotNamed();
  const scheme = asked.forwardedProto === 'http' ? 'http' : 'https';
  const host = hostOf(scheme, asked.forwardedHost);
  if (!host) throw errors.serviceNotFound();
  const onHost = servicesByHost(catalogue).get(host);
  if (!onHost) throw errors.serviceNotFound();
  const byPath = onHost.some(({ servicePath }) => servicePath !== '/');
  const path = byPath ? pathOf(asked.forwardedUri) : '/';
  const candidates = onHost.filter(({ servicePath }) => under(servicePath, path));
  if (candidates.length === 0) throw errors.serviceNotFound();
  const depth = (servicePath: string) => servicePath.replace(/\/+$/, '').length;
  const deepest = Math.max(...candidates.map(({ servicePath }) => depth(servicePath)));
  const chosen = candidates.filter(({ servicePath }) => depth(servicePath) === deepest);
  if (chosen.length > 1) throw errors.serviceAmbiguous();
  return chosen[0]!.service;
}
