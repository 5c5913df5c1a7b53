import type { Catalogue, DataService } from '../catalogue/catalogue.js';
import { errors } from '../http/api-error.js';

/** What a forward-auth check says about the data service it is for (docs/architecture.md#forward-authentication). */
export interface ServiceAsked {
  /** `?service=`: a catalogue id, which decides alone. */
  serviceId?: string;
  /** The host the browser asked for, as the proxy forwards it (`X-Forwarded-Host`). */
  forwardedHost?: string;
  /** The scheme of the browser's request (`X-Forwarded-Proto`); https when absent. */
  forwardedProto?: string;
  /** The path and query the browser asked for (`X-Forwarded-Uri`), to tell services on one host apart by path. */
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
  try {
    return new URL(`${scheme}://${host}`).host;
  } catch {
    return undefined;
  }
}

const pathOf = (uri: string | undefined): string => {
  if (!uri?.startsWith('/')) return '/';
  return uri.split(/[?#]/)[0] ?? '/';
};

/** Whether `path` lies under the service's path: `/kaart` under `/kaart/`, `/kaart/x` too, `/kaarten` not. */
function under(servicePath: string, path: string): boolean {
  const prefix = servicePath.replace(/\/+$/, '');
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The catalogue service a forward-auth check is for: the one `?service=` names, or else the one whose `url` has the
 * forwarded host; several services on one host are told apart by the longest path of their `url` that the
 * forwarded path lies under. Unknown → 404, nothing to go by or no single answer → 400; never a guess.
 */
export function chooseService(catalogue: Catalogue, asked: ServiceAsked): DataService {
  if (asked.serviceId !== undefined) {
    const named = catalogue.services.find((s) => s.id === asked.serviceId);
    if (!named) throw errors.serviceNotFound();
    return named;
  }
  if (!asked.forwardedHost) throw errors.serviceNotNamed();
  const scheme = asked.forwardedProto === 'http' ? 'http' : 'https';
  const host = hostOf(scheme, asked.forwardedHost);
  if (!host) throw errors.serviceNotFound();
  const path = pathOf(asked.forwardedUri);
  const candidates = catalogue.services
    .map((service) => ({ service, url: new URL(service.url) }))
    .filter(({ url }) => url.host === host && under(url.pathname, path));
  if (candidates.length === 0) throw errors.serviceNotFound();
  const depth = (url: URL) => url.pathname.replace(/\/+$/, '').length;
  const deepest = Math.max(...candidates.map(({ url }) => depth(url)));
  const chosen = candidates.filter(({ url }) => depth(url) === deepest);
  if (chosen.length > 1) throw errors.serviceAmbiguous();
  return chosen[0]!.service;
}
