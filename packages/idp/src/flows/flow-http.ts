import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { HttpError } from '../errors/herodot.js';
import { isJsonRequest, prefersJson } from '../http/negotiation.js';
import { csrfTokensMatch, newCsrfToken, readCsrfCookie, setCsrfCookie } from '../http/cookies.js';
import { uiUrl } from '../http/return-to.js';
import type { IdentityRecord } from '../identities/identity-repository.js';
import type { UI_PATHS } from '../config.js';
import { flowJson } from './flow-json.js';
import type { Flow } from './flow.js';

const NO_CACHE = 'private, no-cache, no-store, must-revalidate';

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', NO_CACHE)
    .header('Content-Type', 'application/json; charset=utf-8')
    .send(JSON.stringify(body));
}

export function redirect(reply: FastifyReply, location: string, status = 303): FastifyReply {
  return reply.code(status).header('Cache-Control', NO_CACHE).header('Location', location).send();
}

/** Browser flows answer HTML requests with redirects; SPA (JSON) and API flows get JSON. */
export const wantsRedirect = (request: FastifyRequest, flow?: Flow, submit = false): boolean =>
  (flow?.type ?? 'browser') === 'browser' && !(submit ? isJsonRequest(request) : prefersJson(request.headers.accept));

export const flowUiUrl = (services: IdpServices, flow: Flow): string =>
  uiUrl(services.ctx.config, flow.kind as keyof typeof UI_PATHS, { flow: flow.id });

export function sendFlow(
  services: IdpServices,
  reply: FastifyReply,
  status: number,
  flow: Flow,
  identity?: IdentityRecord,
) {
  return sendJson(reply, status, flowJson(flow, services.ctx.config, identity));
}

/** The CSRF cookie, created when the browser has none yet; returns the real token to store with a new flow. */
export function ensureCsrfCookie(services: IdpServices, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCsrfCookie(request, services.ctx.config);
  if (existing && Buffer.from(existing, 'base64').length === 32) return existing;
  const token = newCsrfToken();
  setCsrfCookie(reply, services.ctx.config, token);
  return token;
}

export function regenerateCsrfCookie(services: IdpServices, reply: FastifyReply): string {
  const token = newCsrfToken();
  setCsrfCookie(reply, services.ctx.config, token);
  return token;
}

const CSRF_REASON =
  'Please retry the flow and optionally clear your cookies. The request was rejected to protect you from ' +
  'Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, ' +
  'and other serious security issues.';

const CSRF_TOKEN_MISMATCH =
  'The HTTP Cookie Header was set and a CSRF token was sent but they do not match. ' +
  'We recommend deleting all cookies for this domain and retrying the flow.';

const csrfViolation = (rejectReason: string, hint?: string) =>
  new HttpError({
    code: 403,
    id: 'security_csrf_violation',
    message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
    reason: CSRF_REASON,
    details: {
      docs: 'https://www.ory.com/docs/troubleshooting/csrf',
      hint: hint ?? rejectReason,
      reject_reason: rejectReason,
    },
  });

/**
 * Browser flows: the body's masked `csrf_token` must match the anti-CSRF cookie (docs/kratos-compatibility.md#csrf).
 * API flows: requests must not carry an Origin header or cookies.
 */
export function ensureCsrf(
  services: IdpServices,
  request: FastifyRequest,
  flow: Flow,
  body: Record<string, unknown>,
): void {
  if (flow.type === 'api') {
    if (request.headers.origin !== undefined) {
      throw new HttpError({
        code: 400,
        reason:
          'The HTTP Request Header included the "Origin" key, indicating that this request was made as part of ' +
          'an AJAX request in a Browser. The flow however was initiated as an API request. To prevent potential ' +
          'misuse and mitigate several attack vectors including CSRF, the request has been blocked. ' +
          'Please consult the documentation.',
      });
    }
    const cookieNames = Object.keys(request.cookies ?? {}).filter((name) => !/^(__cf|_cf|cf_)/.test(name));
    if (cookieNames.length > 0) {
      throw new HttpError({
        code: 400,
        reason:
          'The HTTP Request Header included the "Cookie" key, indicating that this request was made by a Browser. ' +
          'The flow however was initiated as an API request. To prevent potential misuse and mitigate several ' +
          'attack vectors including CSRF, the request has been blocked. Please consult the documentation.',
      });
    }
    return;
  }
  if (flow.internal.skip_csrf === true) return;
  const cookieHeader = request.headers.cookie;
  const cookie = readCsrfCookie(request, services.ctx.config);
  if (!cookieHeader) throw csrfViolation('The HTTP Cookie Header is empty or not set.');
  if (!cookie) throw csrfViolation('The HTTP Cookie Header was set but did not include the anti-CSRF cookie.');
  const sent = body.csrf_token;
  if (typeof sent !== 'string' || sent === '') {
    throw csrfViolation(
      CSRF_TOKEN_MISMATCH,
      'The anti-CSRF cookie was found but the CSRF token was not included in the HTTP request body (csrf_token) ' +
        'nor in the HTTP Header (X-CSRF-Token).',
    );
  }
  if (!csrfTokensMatch(cookie, sent)) {
    throw csrfViolation(CSRF_TOKEN_MISMATCH);
  }
}

/** GET of a browser flow: the cookie must hold the token the flow was created with. */
export function ensureFlowCsrfCookie(services: IdpServices, request: FastifyRequest, flow: Flow): void {
  if (flow.type !== 'browser' || flow.internal.skip_csrf === true) return;
  const cookie = readCsrfCookie(request, services.ctx.config);
  const ok =
    cookie !== undefined &&
    Buffer.from(cookie).length === Buffer.from(flow.csrfToken).length &&
    crypto.timingSafeEqual(Buffer.from(cookie), Buffer.from(flow.csrfToken));
  if (!ok) {
    throw csrfViolation(
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
    throw new HttpError({
      code: 400,
      reason: 'Unable to decode the request body: it must be a JSON object or a form.',
    });
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

/** Browser HTML requests see errors on the error page; everything else gets the herodot envelope. */
async function sendErrorToBrowser(services: IdpServices, reply: FastifyReply, error: HttpError): Promise<FastifyReply> {
  const id = crypto.randomUUID();
  await services.ctx.db.kysely
    .insertInto('selfservice_errors')
    .values({ id, error: JSON.stringify(error.toErrorObject()), created_at: services.ctx.clock.now().toISOString() })
    .execute();
  return redirect(reply, uiUrl(services.ctx.config, 'error', { id }));
}

/** Runs a handler; HttpErrors of browser HTML requests are stored and shown on the error page. */
export async function withBrowserErrors(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  asRedirect: boolean,
  handler: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await handler();
  } catch (error) {
    if (asRedirect && error instanceof HttpError && request.method !== 'HEAD')
      return sendErrorToBrowser(services, reply, error);
    throw error;
  }
}
