import type { UiText } from '../ui/messages.js';
import { addFlowMessage } from '../ui/nodes.js';
import type { DbExecutor } from '../identities/identity-repository.js';
import { insertFlow, type Flow, type FlowType } from './flow.js';
import type { FlowContext } from './flow-context.js';
import { requestUrlOf } from './flow-request.js';
import { csrfTokenForNewFlow } from './steps.js';

/** Where a new flow begins: the kind of client, the request that made it, its CSRF token, where to return after. */
export interface FlowStart {
  type: FlowType;
  requestUrl: string;
  csrfToken: string;
  returnTo: string | null;
  /** Why the flow was made anew (the old one expired or was used up), shown on its form. */
  message?: UiText;
}

/** The start of a flow the current request creates (`GET /self-service/<kind>/{browser,api}`). */
export const startOfRequest = (ctx: FlowContext, returnTo: string | null): FlowStart => ({
  type: ctx.type,
  requestUrl: requestUrlOf(ctx.services, ctx.request),
  csrfToken: csrfTokenForNewFlow(ctx),
  returnTo,
});

/** The start of a flow that replaces `old`, for the same client and return address, saying why. */
export const startReplacing = (old: Flow, message: UiText): FlowStart => ({
  type: old.type,
  requestUrl: old.requestUrl,
  csrfToken: old.csrfToken,
  returnTo: old.returnTo,
  message,
});

/** Stores a new flow whose form is ready, with the start's message on it. */
export async function storeStartedFlow(db: DbExecutor, flow: Flow, start: FlowStart): Promise<Flow> {
  if (start.message) addFlowMessage(flow.ui, start.message);
  await insertFlow(db, flow);
  return flow;
}

/** The fields of a new flow its start sets (for `newFlow`). */
export const startFields = ({ type, requestUrl, csrfToken, returnTo }: FlowStart) => ({
  type,
  requestUrl,
  csrfToken,
  returnTo,
});
