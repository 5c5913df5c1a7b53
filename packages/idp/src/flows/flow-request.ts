import type { FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { uiUrl, validateReturnTo } from '../http/return-to.js';

export type Query = Record<string, string | undefined>;

export const queryOf = (request: FastifyRequest): Query => {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  const out: Query = {};
  for (const [key, value] of Object.entries(raw)) {
    out[key] = Array.isArray(value) ? String(value[value.length - 1]) : value === undefined ? undefined : String(value);
  }
  return out;
};

/** The full URL the client called, as Kratos records it in `request_url`. */
export const requestUrlOf = (services: IdpServices, request: FastifyRequest): string =>
  new URL(request.url, services.ctx.config.publicUrl).toString();

/**
 * Validates `return_to` at flow creation (docs/kratos-compatibility.md#allowed-return-targets); returns it unchanged
 * when allowed.
 */
export function returnToOf(services: IdpServices, query: Query): string | null {
  const value = query.return_to;
  if (value === undefined || value === '') return null;
  validateReturnTo(services.ctx.config, value);
  return value;
}

/** Where a finished flow sends the browser: its validated `return_to`, else the default return URL. */
export function returnUrlOf(services: IdpServices, returnTo: string | null): string {
  const { config } = services.ctx;
  if (returnTo) return validateReturnTo(config, returnTo).toString();
  return uiUrl(config, 'defaultReturn');
}
