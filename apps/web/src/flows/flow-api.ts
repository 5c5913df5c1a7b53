import type { LoginFlow, RecoveryFlow, RegistrationFlow, SettingsFlow, VerificationFlow } from '@ory/client-fetch';
import { idpCall } from '../api/ory';
import type { FlowName } from './flow-errors';
import type { FlowValues } from './ui-types';

/** The flow object of each kind, as the identity provider sends it. */
export interface FlowOf {
  login: LoginFlow;
  registration: RegistrationFlow;
  recovery: RecoveryFlow;
  verification: VerificationFlow;
  settings: SettingsFlow;
}

/** What a new browser flow is made with; `aal` and `refresh` only for sign-in. */
export interface CreateParams {
  aal?: string;
  refresh?: boolean;
  returnTo?: string;
}

interface FlowCalls<F> {
  create(params: CreateParams): Promise<F>;
  get(id: string): Promise<F>;
  /** The answer: the flow again (recovery, verification, settings) or the result (a session, a new identity). */
  update(id: string, body: FlowValues): Promise<unknown>;
}

const callsOf = <F>(kind: FlowName): FlowCalls<F> => ({
  create: ({ aal, refresh, returnTo }) =>
    idpCall<F>('GET', `/self-service/${kind}/browser`, { refresh, aal, return_to: returnTo }),
  get: (id) => idpCall<F>('GET', `/self-service/${kind}/flows`, { id }),
  update: (flow, body) => idpCall<unknown>('POST', `/self-service/${kind}`, { flow }, body),
});

/** The Kratos calls of each flow kind in JSON mode (docs/architecture.md#how-a-sign-in-travels-through-the-code). */
export const flowApi: { [K in FlowName]: FlowCalls<FlowOf[K]> } = {
  login: callsOf('login'),
  registration: callsOf('registration'),
  recovery: callsOf('recovery'),
  verification: callsOf('verification'),
  settings: callsOf('settings'),
};
