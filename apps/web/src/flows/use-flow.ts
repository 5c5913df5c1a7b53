import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { idpErrorOf } from '../api/ory';
import { withNotice } from '../components/RestartNotice';
import { keptValues, withKeptValues } from './carry-over';
import { csrfOf } from './csrf';
import { type FlowOf, flowApi } from './flow-api';
import { useFlowAddress } from './flow-address';
import { type FlowErrorActions, type FlowFailure, type FlowName, settleFlowError } from './flow-errors';
import type { FlowOptions, FlowProblem, Submitted } from './flow-options';
import type { FlowUi, FlowValues } from './ui-types';

const isFlow = (answer: unknown): boolean => typeof answer === 'object' && answer !== null && 'ui' in answer;

/**
 * One self-service flow for a screen, as Ory Elements' flow context: made (or fetched by the id in the address) once
 * per address, shown, submitted with its CSRF token, and every failure put through the flow error handler
 * (flow-errors.ts), which navigates, starts over or follows a replacing flow; what it cannot act on becomes `problem`.
 * The flow that replaces an expired one keeps the e-mail address and profile fields the person typed.
 */
export function useSelfServiceFlow<K extends FlowName>(kind: K, options: FlowOptions = {}) {
  type F = FlowOf[K];
  const navigate = useNavigate();
  const address = useFlowAddress(options.inAddress !== false);
  const [flow, setFlow] = useState<F>();
  const [problem, setProblem] = useState<FlowProblem>();
  // The flow on screen as of now, for answers and for submits in a row (a new flow after each answer).
  const shown = useRef<F>(undefined);
  // The address a load was started for, so that it starts once and a late answer for an older address is dropped.
  const started = useRef<string | null>(null);
  const justMade = useRef<string>(undefined);
  const restarting = useRef(false);
  // A load answered after the person left the screen (a quick click on 'Wachtwoord vergeten') must not put its flow
  // in the address: the router would take them back to this screen.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // What the person typed in a flow that expired, for the flow that replaces it (carry-over.ts).
  const carried = useRef<FlowValues>(undefined);
  const latest = useRef({ options, id: address.id });
  latest.current = { options, id: address.id };
  const key = `${address.id ?? 'new'}?${address.rest}`;

  const show = (next: F | undefined) => {
    shown.current = next;
    setFlow(next);
  };

  const actions: FlowErrorActions = {
    navigate: (to, notice) => navigate(to, withNotice(notice)),
    restart(notice) {
      const own = latest.current.options.restart;
      if (own) return own(notice);
      // The address loses the refused flow's id after the flow is cleared (the router updates in a transition):
      // wait for that, rather than load the refused flow again.
      restarting.current = latest.current.id !== null;
      started.current = null;
      show(undefined);
      address.clear(notice);
    },
    followFlow: (id) => address.put(id),
  };

  async function failed(error: unknown, during: FlowProblem['during']): Promise<FlowFailure<F>> {
    const failure = await settleFlowError<F>(error, kind, actions);
    if (failure.kind === 'refused') show(failure.flow);
    if (failure.kind === 'unreachable' || failure.kind === 'failed' || failure.kind === 'busy')
      setProblem({ during, cause: failure.kind });
    return failure;
  }

  async function load(forKey: string, id: string | null) {
    const { create, before } = latest.current.options;
    setProblem(undefined);
    try {
      const elsewhere = await before?.();
      if (elsewhere) return void navigate(elsewhere, { replace: true });
      const loaded = id
        ? await flowApi[kind].get(id)
        : await flowApi[kind].create(create ? create() : { returnTo: address.returnTo });
      if (started.current !== forKey || !mounted.current) return;
      const kept = carried.current;
      carried.current = undefined;
      show((kept ? withKeptValues(loaded, kept) : loaded) as F);
      if (id !== null) return;
      justMade.current = loaded.id;
      address.put(loaded.id);
    } catch (error) {
      if (started.current === forKey) await failed(error, 'load');
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per address; the handlers change every render
  useEffect(() => {
    const id = address.id;
    // The address getting the id of the flow just made is no reason to fetch it again (that would wipe what the
    // person typed meanwhile), also when the router renders before the flow state does.
    if (id !== null && (flow?.id === id || justMade.current === id)) return;
    if (restarting.current) {
      if (id !== null) return;
      restarting.current = false;
    }
    if (started.current === key || (id === null && options.create === false)) return;
    started.current = key;
    void load(key, id);
  }, [key, flow?.id]);

  /** Sends the body for the flow on screen, with its CSRF token unless the body has one (FlowForm's values do). */
  async function submit(body: FlowValues): Promise<Submitted<F>> {
    const current = shown.current;
    if (!current) return { kind: 'not_sent' };
    setProblem(undefined);
    const csrf = csrfOf(current.ui as unknown as FlowUi);
    try {
      const answer = await flowApi[kind].update(
        current.id,
        body.csrf_token || !csrf ? body : { ...body, csrf_token: csrf },
      );
      const next = isFlow(answer) ? (answer as F) : undefined;
      if (next) show(next);
      return { kind: 'done', answer, flow: next };
    } catch (error) {
      const own = latest.current.options.onSubmitError;
      const refusal = await idpErrorOf(error);
      if (own && (await own(refusal))) return { kind: 'handled' };
      if (refusal.status === 410 || refusal.body.error?.id === 'self_service_flow_expired')
        carried.current = keptValues(body);
      return failed(error, 'submit');
    }
  }

  return { flow, ui: flow?.ui as unknown as FlowUi | undefined, problem, submit };
}
