import { kratosErrors } from '../errors/kratos-errors.js';
import { publicUrlOf, uiUrl } from '../http/return-to.js';
import { availableAal, sessionAal } from '../sessions/aal.js';
import { isExpired } from './flow.js';
import type { FlowContext } from './flow-context.js';
import { ensureFlowCsrfCookie } from './flow-http.js';
import type { Outcome } from './outcome.js';
import { requireFlow } from './steps.js';

/** `GET /self-service/<kind>/flows?id=` for every flow kind (docs/kratos-compatibility.md#flow-objects). */
export async function getFlow(ctx: FlowContext): Promise<Outcome> {
  const { config, clock } = ctx.idp;
  const flow = requireFlow(ctx);
  const kind = flow.kind;
  const now = clock.now();

  if (kind === 'settings') {
    const auth = await ctx.auth();
    if (!auth) throw kratosErrors.noSessionCredentials('A valid Ory Session Cookie or Ory Session Token is missing.');
    if (auth.identity.id !== flow.identityId) throw kratosErrors.identityMismatch(false);
    if (availableAal(auth.credentials) === 'aal2' && sessionAal(auth.session.methods) !== 'aal2') {
      // Back to the settings screen with this flow afterwards, as Kratos' getSettingsFlow does.
      const settingsUrl = uiUrl(config, 'settings', { flow: flow.id });
      throw kratosErrors.sessionAal2Required(
        publicUrlOf(config, '/self-service/login/browser', { aal: 'aal2', return_to: settingsUrl }),
      );
    }
    if (isExpired(flow, now)) {
      const initUrl = publicUrlOf(config, `/self-service/${kind}/${flow.type}`);
      // Kratos answers an expired settings flow without an error id (docs/kratos-compatibility.md#flow-objects).
      throw kratosErrors.flowExpiredOnGet(kind, flow.type, initUrl, flow.returnTo, false);
    }
    return { kind: 'flow', flow, status: 200, identity: auth.identity };
  }

  ensureFlowCsrfCookie(ctx, flow);
  if (isExpired(flow, now)) {
    const initUrl = publicUrlOf(config, `/self-service/${kind}/${flow.type}`);
    // Only login, registration and API recovery flows answer with an error id, as in Kratos
    // (docs/kratos-compatibility.md#flow-objects).
    const withId = kind === 'login' || kind === 'registration' || (kind === 'recovery' && flow.type === 'api');
    throw kratosErrors.flowExpiredOnGet(kind, flow.type, initUrl, flow.returnTo, withId);
  }
  return { kind: 'flow', flow, status: 200 };
}
