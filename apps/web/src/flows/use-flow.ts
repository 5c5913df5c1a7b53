import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { frontend, idpErrorOf } from '../api/ory';
import { handleFlowError, type FlowErrorActions } from './flow-errors';
import type { FlowUi, FlowValues } from './ui-types';
import { useSameScreenNavigation, withNotice } from '../components/RestartNotice';

type Kind = 'registration' | 'verification';

interface AnyFlow {
  id: string;
  ui: unknown;
  state?: unknown;
  return_to?: string;
}

const api = {
  registration: {
    create: (returnTo?: string) => frontend.createBrowserRegistrationFlow({ returnTo }),
    get: (id: string) => frontend.getRegistrationFlow({ id }),
    update: (id: string, body: FlowValues) =>
      frontend.updateRegistrationFlow({ flow: id, updateRegistrationFlowBody: body as never }),
  },
  verification: {
    create: (returnTo?: string) => frontend.createBrowserVerificationFlow({ returnTo }),
    get: (id: string) => frontend.getVerificationFlow({ id }),
    update: (id: string, body: FlowValues) =>
      frontend.updateVerificationFlow({ flow: id, updateVerificationFlowBody: body as never }),
  },
};

/**
 * A self-service flow kept in the address (`?flow=`): made or fetched once per id, submitted through the SDK, with
 * the flow error handler (flow-errors.ts). `submit` resolves with the answer (a flow, or a registration's result).
 */
export function useSelfServiceFlow(kind: Kind) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [flow, setFlow] = useState<AnyFlow>();
  /** Set when the server could not be reached or failed in a way the flow error handler does not know. */
  const [problem, setProblem] = useState<'unreachable' | 'failed'>();
  const flowId = params.get('flow');
  const returnTo = params.get('return_to') ?? undefined;
  const loading = useRef<string | null>(null);
  const restarting = useRef(false);
  const sameScreen = useSameScreenNavigation();

  const actions: FlowErrorActions = {
    navigate: (to, notice) => navigate(to, withNotice(notice)),
    restart: (notice) => {
      // The address loses the refused flow's id after the flow is cleared (the router updates in a transition):
      // wait for that, rather than load the refused flow again.
      restarting.current = true;
      loading.current = null;
      setFlow(undefined);
      setParams({}, withNotice(notice));
    },
    followFlow: (id) => setParams({ flow: id }, sameScreen()),
  };

  /** Acts on the failure as the flow error handler says, or says what went wrong; answers a flow to show. */
  async function failed(error: unknown): Promise<AnyFlow | undefined> {
    const { status } = await idpErrorOf(error);
    if (status === 0 || status === 502) return void setProblem('unreachable');
    try {
      return await handleFlowError<AnyFlow>(error, kind, actions);
    } catch {
      setProblem('failed');
      return undefined;
    }
  }

  // The flow is loaded again only when its id or kind changes, not when the handlers are remade.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded again only for a new id or kind
  const load = useCallback(async () => {
    try {
      const loaded = (flowId ? await api[kind].get(flowId) : await api[kind].create(returnTo)) as AnyFlow;
      setFlow(loaded);
      if (!flowId) setParams({ flow: loaded.id }, sameScreen());
    } catch (error) {
      await failed(error);
    }
  }, [flowId, kind, returnTo]);

  useEffect(() => {
    if (flow && (flowId === null || flow.id === flowId)) return;
    if (restarting.current) {
      if (flowId !== null) return;
      restarting.current = false;
    }
    if (loading.current === (flowId ?? 'new')) return;
    loading.current = flowId ?? 'new';
    void load();
  }, [load, flow, flowId]);

  // The submit helper is remade only for a new flow; the handlers it calls are remade every render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: remade only for a new flow
  const submit = useCallback(
    async (values: FlowValues): Promise<unknown> => {
      if (!flow) return undefined;
      setProblem(undefined);
      try {
        const answer = (await api[kind].update(flow.id, values)) as unknown;
        if (answer && typeof answer === 'object' && 'ui' in answer) setFlow(answer as AnyFlow);
        return answer;
      } catch (error) {
        const shown = await failed(error);
        if (shown) setFlow(shown);
        return undefined;
      }
    },
    [flow, kind],
  );

  return { flow, ui: flow?.ui as FlowUi | undefined, submit, problem };
}
