import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpContext } from '../context.js';
import type { IdpServices } from '../services.js';
import { authenticate, type Authenticated } from '../sessions/authenticate.js';
import { creationMode, submissionMode, type AnswerMode } from './answer.js';
import { findFlow, type Flow, type FlowKind, type FlowType } from './flow.js';
import { queryOf, type Query } from './flow-request.js';
import { collectEffects, type AnswerEffects, type CollectedEffects } from '../http/answer-effects.js';

/**
 * Everything one self-service request needs, built once per request and handed to every step of its flow (as
 * node-oidc-provider hands its actions one `ctx`). The steps return outcomes; `answer.ts` turns an outcome into the
 * HTTP answer for `mode`.
 */
export interface FlowContext {
  readonly services: IdpServices;
  /** `services.ctx`: database, configuration, clock, log. */
  readonly idp: IdpContext;
  readonly request: FastifyRequest;
  /** Cookies and headers for the answer; steps record them here and never touch the reply (http/answer-effects.ts). */
  readonly effects: AnswerEffects;
  readonly kind: FlowKind | 'logout';
  /** The route's type when a flow is created; the stored flow's when one is submitted (browser when none exists). */
  readonly type: FlowType;
  /** How every answer of this request is given (docs/kratos-compatibility.md#browser-spa-and-api-modes). */
  readonly mode: AnswerMode;
  readonly query: Query;
  /** The flow named by `?flow=`, looked up once when the context is built; undefined for creations. */
  readonly flow: Flow | undefined;
  /** The request's live session with its credentials, looked up at most once. */
  auth(): Promise<Authenticated | undefined>;
}

/** A context as `answer.ts` receives it: the reply, which only it writes to, beside what the steps see. */
export interface AnsweredContext extends FlowContext {
  readonly reply: FastifyReply;
  readonly effects: CollectedEffects;
}

/** The three things Fastify hands a route, plus the provider's services. */
export interface RequestParts {
  services: IdpServices;
  request: FastifyRequest;
  reply: FastifyReply;
}

function contextOf(
  parts: RequestParts,
  init: Pick<FlowContext, 'kind' | 'type' | 'mode' | 'flow'> & { query?: Query },
): AnsweredContext {
  let auth: Promise<Authenticated | undefined> | undefined;
  return {
    ...parts,
    effects: collectEffects(),
    idp: parts.services.ctx,
    kind: init.kind,
    type: init.type,
    mode: init.mode,
    flow: init.flow,
    query: init.query ?? queryOf(parts.request),
    auth: () => {
      auth ??= authenticate(parts.services, parts.request);
      return auth;
    },
  };
}

/** `GET /self-service/<kind>/{browser,api}`, and the logout routes (kind `logout`, always browser). */
export const creationContext = (parts: RequestParts, kind: FlowContext['kind'], type: FlowType): AnsweredContext =>
  contextOf(parts, { kind, type, mode: creationMode(parts.request, type), flow: undefined });

/** `POST|GET /self-service/<kind>?flow=`: finds the flow first, since its type decides the mode. */
export async function submissionContext(parts: RequestParts, kind: FlowKind): Promise<AnsweredContext> {
  const query = queryOf(parts.request);
  // Verification has always read the last of repeated `flow` parameters; the others take only a single one.
  const flowId = kind === 'verification' ? query.flow : (parts.request.query as Record<string, unknown>).flow;
  const flow = await findFlow(parts.services.ctx.db.kysely, kind, flowId);
  return contextOf(parts, {
    kind,
    type: flow?.type ?? 'browser',
    mode: submissionMode(parts.request, flow),
    flow,
    query,
  });
}

/**
 * A context whose mode is fixed by the route, not negotiated: `GET …/flows?id=` (always JSON), the recovery link of a
 * mail (always the browser's).
 */
export async function fixedModeContext(
  parts: RequestParts,
  init: { kind: FlowKind; mode: AnswerMode; flowId: unknown },
): Promise<AnsweredContext> {
  const flow = await findFlow(parts.services.ctx.db.kysely, init.kind, init.flowId);
  return contextOf(parts, { kind: init.kind, type: flow?.type ?? 'browser', mode: init.mode, flow });
}
