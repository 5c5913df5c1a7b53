import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { csrfTokensMatch, newCsrfToken, readCsrfCookie } from '../http/cookies.js';
import { uiUrl } from '../http/return-to.js';
import type { UI_PATHS } from '../config.js';
import type { Flow } from './flow.js';
import type { FlowContext } from './flow-context.js';

export const flowUiUrl = (services: IdpServices, flow: Flow): string =>
  uiUrl(services.ctx.config, flow.kind as keyof typeof UI_PATHS, { flow: flow.id });

/** The CSRF cookie, created when the browser has none yet; returns the real token to store with a new flow. */
export function ensureCsrfCookie(ctx: FlowContext): string {
  const existing = readCsrfCookie(ctx.request, ctx.idp.config);
  if (existing && Buffer.from(existing, 'base64').length === 32) return existing;
  return regenerateCsrfCookie(ctx);
}

export function regenerateCsrfCookie(ctx: FlowContext): string {
  const token = newCsrfToken();
  ctx.effects.setCsrf(token);
  return token;
}

const CSRF_TOKEN_MISMATCH =
  'The HTTP Cookie Header was set and a CSRF token was sent but they do not match. ' +
  'We recommend deleting all cookies for this domain and retrying the flow.';

/**
 * Browser flows: the body's masked `csrf_token` must match the anti-CSRF cookie (docs/kratos-compatibility.md#csrf).
 * API flows: requests must not carry an Origin header or cookies.
 */
export function ensureCsrf(ctx: FlowContext, flow: Flow, body: Record<string, unknown>): void {
  const { request } = ctx;
  if (flow.type === 'api') {
    if (request.headers.origin !== undefined) throw kratosErrors.originHeaderNeedsBrowserFlow();
    const cookieNames = Object.keys(request.cookies ?? {}).filter((name) => !/^(__cf|_cf|cf_)/.test(name));
    if (cookieNames.length > 0) throw kratosErrors.cookieHeaderNeedsBrowserFlow();
    return;
  }
  if (flow.internal.skip_csrf === true) return;
  const cookieHeader = request.headers.cookie;
  const cookie = readCsrfCookie(request, ctx.idp.config);
  if (!cookieHeader) throw kratosErrors.csrfViolation('The HTTP Cookie Header is empty or not set.');
  if (!cookie)
    throw kratosErrors.csrfViolation('The HTTP Cookie Header was set but did not include the anti-CSRF cookie.');
  const sent = body.csrf_token;
  if (typeof sent !== 'string' || sent === '') {
    throw kratosErrors.csrfViolation(
      CSRF_TOKEN_MISMATCH,
      'The anti-CSRF cookie was found but the CSRF token was not included in the HTTP request body (csrf_token) ' +
        'nor in the HTTP Header (X-CSRF-Token).',
    );
  }
  if (!csrfTokensMatch(cookie, sent)) {
    throw kratosErrors.csrfViolation(CSRF_TOKEN_MISMATCH);
  }
}

/** GET of a browser flow: the cookie must hold the token the flow was created with. */
export function ensureFlowCsrfCookie(ctx: FlowContext, flow: Flow): void {
  if (flow.type !== 'browser' || flow.internal.skip_csrf === true) return;
  const cookie = readCsrfCookie(ctx.request, ctx.idp.config);
  const ok =
    cookie !== undefined &&
    Buffer.from(cookie).length === Buffer.from(flow.csrfToken).length &&
    crypto.timingSafeEqual(Buffer.from(cookie), Buffer.from(flow.csrfToken));
  if (!ok) {
    throw kratosErrors.csrfViolation(
      cookie === undefined
        ? 'The HTTP Cookie Header was set but did not include the anti-CSRF cookie.'
        : CSRF_TOKEN_MISMATCH,
    );
  }
}

/**
 * Submit bodies arrive as JSON or as forms with dotted names (`traits.email`). Forms drop empty strings before
 * validation, as Kratos does; JSON keeps them. Keys that could pollute prototypes are ignored.
 */
export function readSubmitBody(request: FastifyRequest): { body: Record<string, unknown>; json: boolean } {
  const raw = request.body;
  const json = request.headers['content-type']?.toLowerCase().startsWith('application/json') ?? false;
  if (raw === undefined || raw === null || raw === '') return { body: {}, json };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw kratosErrors.badRequest('Unable to decode the request body: it must be a JSON object or a form.');
  }
  if (json) return { body: raw as Record<string, unknown>, json };
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const single = Array.isArray(value) ? value[value.length - 1] : value;
    if (single === '' || single === undefined) continue;
    const path = key.split('.');
    if (path.some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype')) continue;
    let target = body;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (typeof next !== 'object' || next === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[path[path.length - 1]!] = single;
  }
  return { body, json };
}
