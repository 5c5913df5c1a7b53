import { useEffect, useRef, useState } from 'react';
import type { FlowUi, FlowValues, UiNode } from '../ui-types';
import { AUTOFILL, autofillNodeOf, bodyWith, type Ceremony, ceremonyOf, optionsOf } from './triggers';

const loadCeremony = () => import('./ceremony');

/**
 * Runs the WebAuthn ceremonies of a flow's buttons and, where the flow asks for it, passkey autofill on the e-mail
 * field; the answer goes to `send` as the flow's body. `failure` says in Dutch why a ceremony did not finish (shown
 * in a live region by the screen). The WebAuthn code is loaded only once a flow has a WebAuthn node.
 */
export function useWebAuthn(ui: FlowUi | undefined, values: FlowValues, send: (body: FlowValues) => Promise<void>) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A failed or stopped button ceremony starts the autofill again (a browser allows one request at a time).
  const [round, setRound] = useState(0);
  const latest = useRef({ values, send });
  latest.current = { values, send };
  // Set once the autofill has answered: it is not asked again on this screen. Signed in, the screen is left; refused
  // (a passkey the portal removed, say), the flow comes back with a new challenge, and a browser that picks the same
  // passkey at once would send it again and again, hundreds of refusals in seconds that fill the limit of everyone
  // behind the address (docs/security.md#45-brute-force-limits-and-lockout). The passkey button still works.
  const autofillAnswered = useRef(false);

  const autofill = ui ? autofillNodeOf(ui) : undefined;
  const autofillOptions = ui && autofill ? optionsOf(AUTOFILL, ui) : undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: restarted per flow (its options) and after a failure
  useEffect(() => {
    if (!autofillOptions || autofillAnswered.current) return;
    let stopped = false;
    let module: Awaited<ReturnType<typeof loadCeremony>> | undefined;
    void (async () => {
      module = await loadCeremony();
      if (stopped || !(await module.autofillAvailable())) return;
      try {
        const answer = await module.authenticate(autofillOptions, true);
        if (stopped) return;
        autofillAnswered.current = true;
        setFailure(undefined);
        setBusy(true);
        await latest.current.send(bodyWith(latest.current.values, AUTOFILL, answer));
      } catch {
        // The person did not ask for anything yet: a suggestion that ends (stopped by a button's ceremony, the
        // screen left, or refused by the browser) is not worth a message. Answers the provider refuses are sent and
        // said as every other answer.
      } finally {
        setBusy(false);
      }
    })();
    return () => {
      stopped = true;
      module?.cancel();
    };
  }, [autofillOptions, round]);

  /** Runs the ceremony of a button; `extra` values go with the answer (the name typed for a new security key). */
  async function run(button: UiNode, extra: FlowValues = {}) {
    if (!ui || busy) return;
    const ceremony: Ceremony | undefined = ceremonyOf(button);
    const options = ceremony && optionsOf(ceremony, ui, button);
    if (!ceremony || !options) return;
    setFailure(undefined);
    setBusy(true);
    const module = await loadCeremony();
    let answer: string;
    try {
      answer = ceremony.kind === 'get' ? await module.authenticate(options) : await module.register(options);
    } catch (error) {
      // For whoever looks into a failure: the browser's own reason (never a secret).
      console.warn('WebAuthn ceremony failed', error);
      setFailure(module.reasonOf(error, ceremony.kind));
      setBusy(false);
      if (ceremony.kind === 'get') setRound((n) => n + 1);
      return;
    }
    try {
      await latest.current.send(bodyWith({ ...latest.current.values, ...extra }, ceremony, answer));
    } finally {
      setBusy(false);
    }
  }

  return { run, failure, busy };
}
