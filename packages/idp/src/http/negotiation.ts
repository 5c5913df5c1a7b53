import type { FastifyRequest } from 'fastify';

/**
 * Accept negotiation between `text/html` and `application/json`, defaulting to HTML, as Kratos' ContentNegotiation
 * does (docs/kratos-compatibility.md#browser-spa-and-api-modes): `*\/*` or no Accept header means a browser.
 */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = -1;
  let json = -1;
  for (const [index, part] of accept.split(',').entries()) {
    const [rawType, ...params] = part.trim().split(';');
    const type = (rawType ?? '').trim().toLowerCase();
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    // Earlier entries win on equal quality; weight by a tiny index penalty.
    const score = q - index * 1e-6;
    if (type === 'application/json') json = Math.max(json, score);
    else if (type === 'text/html' || type === 'text/*' || type === '*/*') {
      // Wildcards match HTML first because HTML is the first offer.
      html = Math.max(html, type === 'text/html' ? score : score - 1e-3);
    }
  }
  return json > html;
}

/** Kratos' IsJSONRequest: Accept prefers JSON, or the Content-Type is exactly `application/json`. */
export function isJsonRequest(request: FastifyRequest): boolean {
  return prefersJson(request.headers.accept) || request.headers['content-type'] === 'application/json';
}
