import type { IncomingHttpHeaders } from 'node:http';
import { parse } from 'node:querystring';
import { KeptAnswers, presentedCredentials, type EarlyAnswer, type EarlyAnswerer } from '@portaal/idp';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { chooseService, firstValue } from './service-choice.js';

/** The route as the metrics name it. */
const FORWARD_AUTH_ROUTE = '/api/forward-auth';

/** Passed checks kept, at most: one per session and data service, a few hundred bytes each. */
const KEPT_CHECKS = 20_000;

/** A passed check: the answer, under the catalogue it was decided with. */
interface Passed {
  catalogue: Catalogue;
  answer: EarlyAnswer;
}

/** The parameters the route accepts (`forwardAuthQuery`); anything else, or a value it refuses, goes to the route. */
const KNOWN_PARAMETERS = new Set(['service', 'redirect']);

/** The data service a check asks about, as the route chooses it; undefined for what only the route answers. */
function serviceAsked(catalogue: Catalogue, url: string, headers: IncomingHttpHeaders): string | undefined {
  // Only requests for FORWARD_AUTH_ROUTE reach here (EarlyAnswerer.path).
  const question = url.indexOf('?');
  const query = question < 0 ? {} : parse(url.slice(question + 1));
  if (Object.entries(query).some(([name, value]) => !KNOWN_PARAMETERS.has(name) || typeof value !== 'string')) {
    return undefined;
  }
  if (query.redirect !== undefined && query.redirect !== 'true' && query.redirect !== 'false') return undefined;
  try {
    return chooseService(catalogue, {
      serviceId: query.service as string | undefined,
      forwardedHost: firstValue(headers['x-forwarded-host']),
      forwardedProto: firstValue(headers['x-forwarded-proto']),
      forwardedUri: Array.isArray(headers['x-forwarded-uri'])
        ? headers['x-forwarded-uri'][0]
        : headers['x-forwarded-uri'],
    }).id;
  } catch {
    return undefined;
  }
}

/**
 * The checks that passed, kept per presented credentials and data service while the check mark stays
 * (`KeptAnswers`, the same rule as whoami's), so that a proxy's check for every request of a data service costs no
 * database read while nothing changed. Only passes are kept: a refusal is audited and counted, and goes through
 * the route every time. The route keeps what it decided (`keep`, with the mark it read before the check); `answerer`
 * answers a check from what is kept before Fastify routes it, and leaves everything else to the route.
 */
export function keptForwardAuthChecks(ctx: ApiContext) {
  const kept = new KeptAnswers<Passed>(KEPT_CHECKS);
  const changeMark = ctx.backend.changeMark?.bind(ctx.backend);

  const answer: EarlyAnswerer['answer'] = async (method, url, headers): Promise<EarlyAnswer | undefined> => {
    if (!changeMark || method !== 'GET') return undefined;
    const mark = await changeMark();
    const catalogue = await ctx.catalogue.current();
    const serviceId = serviceAsked(catalogue, url, headers);
    if (serviceId === undefined) return undefined;
    const hit = kept.get(`${presentedCredentials(headers)}\n${serviceId}`, mark, Date.now());
    return hit?.catalogue === catalogue ? hit.answer : undefined;
  };

  return {
    answerer: { path: FORWARD_AUTH_ROUTE, answer } satisfies EarlyAnswerer,
    /** The mark to read before a check whose pass may be kept; undefined where nothing is kept. */
    mark: async () => (changeMark ? await changeMark() : undefined),
    keep(
      headers: IncomingHttpHeaders,
      mark: string | undefined,
      passed: { serviceId: string; catalogue: Catalogue; headers: Record<string, string>; unchangedUntil?: number },
    ): void {
      if (mark === undefined || passed.unchangedUntil === undefined) return;
      const key = `${presentedCredentials(headers)}\n${passed.serviceId}`;
      const answer = {
        route: FORWARD_AUTH_ROUTE,
        status: 200,
        headers: { ...passed.headers, 'Cache-Control': 'no-store' },
        body: '',
      };
      kept.keep(key, mark, passed.unchangedUntil, { catalogue: passed.catalogue, answer });
    },
  };
}
