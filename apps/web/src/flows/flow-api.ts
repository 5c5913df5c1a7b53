import type { LoginFlow, RecoveryFlow, RegistrationFlow, SettingsFlow, VerificationFlow } from '@ory/client-fetch';
import { frontend } from '../api/ory';
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

/** The SDK's calls for each flow kind in JSON mode (docs/architecture.md#how-a-sign-in-travels-through-the-code). */
export const flowApi: { [K in FlowName]: FlowCalls<FlowOf[K]> } = {
  login: {
    create: ({ aal, refresh, returnTo }) => frontend.createBrowserLoginFlow({ aal, refresh, returnTo }),
    get: (id) => frontend.getLoginFlow({ id }),
    update: (flow, body) => frontend.updateLoginFlow({ flow, updateLoginFlowBody: body as never }),
  },
  registration: {
    create: ({ returnTo }) => frontend.createBrowserRegistrationFlow({ returnTo }),
    get: (id) => frontend.getRegistrationFlow({ id }),
    update: (flow, body) => frontend.updateRegistrationFlow({ flow, updateRegistrationFlowBody: body as never }),
  },
  recovery: {
    create: ({ returnTo }) => frontend.createBrowserRecoveryFlow({ returnTo }),
    get: (id) => frontend.getRecoveryFlow({ id }),
    update: (flow, body) => frontend.updateRecoveryFlow({ flow, updateRecoveryFlowBody: body as never }),
  },
  verification: {
    create: ({ returnTo }) => frontend.createBrowserVerificationFlow({ returnTo }),
    get: (id) => frontend.getVerificationFlow({ id }),
    update: (flow, body) => frontend.updateVerificationFlow({ flow, updateVerificationFlowBody: body as never }),
  },
  settings: {
    create: ({ returnTo }) => frontend.createBrowserSettingsFlow({ returnTo }),
    get: (id) => frontend.getSettingsFlow({ id }),
    update: (flow, body) => frontend.updateSettingsFlow({ flow, updateSettingsFlowBody: body as never }),
  },
};
