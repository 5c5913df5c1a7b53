import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import type { FlowKind } from './flow.js';
import { answer } from './answer.js';
import { creationContext, fixedModeContext, submissionContext, type FlowContext } from './flow-context.js';
import type { Outcome } from './outcome.js';
import { getFlow } from './get-flow.js';
import { createLoginFlow } from './login/create.js';
import { submitLoginFlow } from './login/submit.js';
import { createRegistrationFlow, submitRegistrationFlow } from './registration/registration.js';
import { createRecoveryFlow } from './recovery/create.js';
import { followRecoveryLink, submitRecoveryFlow } from './recovery/submit.js';
import { createVerificationFlow, submitVerificationFlow } from './verification/verification.js';
import { createSettingsFlow } from './settings/create.js';
import { submitSettingsFlow } from './settings/submit.js';
import { registerLogoutRoutes } from './logout/logout-routes.js';
import { registerErrorRoutes } from './errors/error-routes.js';
import { registerWebAuthnScriptRoute } from '../credentials/webauthn/script-route.js';
import { queryOf } from './flow-request.js';
import { HashingBusyError } from '../credentials/password/password-hasher.js';

type Step = (ctx: FlowContext) => Promise<Outcome>;

/** Each flow kind's steps for creating and submitting; the context and the answer are the routes' business. */
const flows: Record<FlowKind, { create: Step; submit: Step; link?: { query: string; step: Step } }> = {
  login: { create: createLoginFlow, submit: submitLoginFlow },
  registration: { create: createRegistrationFlow, submit: submitRegistrationFlow },
  // `GET /self-service/recovery?flow=&token=` is the link of a mail: always the browser's.
  recovery: {
    create: createRecoveryFlow,
    submit: submitRecoveryFlow,
    link: { query: 'token', step: followRecoveryLink },
  },
  verification: { create: createVerificationFlow, submit: submitVerificationFlow },
  settings: { create: createSettingsFlow, submit: submitSettingsFlow },
};

/** The flows whose submits hash or verify a password. */
const HASHING: ReadonlySet<FlowKind> = new Set(['login', 'registration']);

/** The self-service routes; each flow's modules hold the logic, this table only wires them. */
export function registerSelfServiceRoutes(app: FastifyInstance, services: IdpServices): void {
  // With every hashing slot busy and the queue full, a submit is refused before its body is read or its flow found;
  // from half the queue on, no new sign-in starts, so that a refusal comes before a flow is written rather than at
  // its submit: refusals stay cheap, and the sign-ins already admitted keep the cores (docs/security.md).
  const refuseWhenSaturated = async () => {
    if (services.passwords.saturated()) throw new HashingBusyError();
  };
  const refuseWhenCrowded = async () => {
    if (services.passwords.crowded()) throw new HashingBusyError();
  };
  for (const [kind, handlers] of Object.entries(flows) as [FlowKind, (typeof flows)[FlowKind]][]) {
    const onRequest = HASHING.has(kind) ? refuseWhenSaturated : undefined;
    const onCreation = HASHING.has(kind) ? refuseWhenCrowded : undefined;
    for (const type of ['browser', 'api'] as const) {
      app.get(`/self-service/${kind}/${type}`, { onRequest: onCreation }, (request, reply) =>
        answer(creationContext({ services, request, reply }, kind, type), handlers.create),
      );
    }
    app.get(`/self-service/${kind}/flows`, async (request, reply) => {
      const parts = { services, request, reply };
      return answer(await fixedModeContext(parts, { kind, mode: 'json', flowId: queryOf(request).id }), getFlow);
    });
    app.route({
      method: ['POST', 'GET'],
      url: `/self-service/${kind}`,
      onRequest,
      handler: async (request, reply) => {
        const parts = { services, request, reply };
        const { link } = handlers;
        if (link && request.method === 'GET' && queryOf(request)[link.query]) {
          const flowId = (request.query as Record<string, unknown>).flow;
          return answer(await fixedModeContext(parts, { kind, mode: 'redirect', flowId }), link.step);
        }
        return answer(await submissionContext(parts, kind), handlers.submit);
      },
    });
  }
  registerLogoutRoutes(app, services);
  registerErrorRoutes(app, services);
  registerFeaturesOff(app, services);
  registerWebAuthnScriptRoute(app);
}

/** Calls for features this product does not use, answered as Kratos does with them switched off. */
function registerFeaturesOff(app: FastifyInstance, services: IdpServices): void {
  const notFound = async () => {
    throw kratosErrors.routeNotFound();
  };
  app.get('/self-service/fed-cm/parameters', notFound);
  app.post('/self-service/fed-cm/token', notFound);
  app.get('/sessions/token-exchange', async () => {
    throw kratosErrors.notFound('no session token exchange code found');
  });
  app.get('/.well-known/change-password', async (_request, reply) =>
    reply
      .code(303)
      .header('Location', new URL('/self-service/settings/browser', services.ctx.config.publicUrl).toString())
      .send(),
  );
  // Admin paths on the public port point to the admin listener, never serve them
  // (docs/kratos-compatibility.md#admin-identity-api).
  // Leading slashes are collapsed first: `//admin/x` would otherwise resolve as the host `admin`.
  app.all('/admin/*', async (request, reply) => {
    const path = request.url.replace(/^[/\\]+/, '/');
    return reply.code(307).header('Location', new URL(path, services.ctx.config.adminUrl).toString()).send();
  });
}
