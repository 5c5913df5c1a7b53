import { useEffect, useRef, useState } from 'react';
import type { SettingsFlow } from '@ory/client-fetch';
import { BUSY, SupportContact, UNREACHABLE } from '../components/SupportContact';
import type { Submitted } from '../flows/flow-options';
import type { FlowUi, FlowValues } from '../flows/ui-types';
import { translate } from '../i18n/kratos-messages';

/** `secrets`: the password or the address changed, so the person is offered to end their other sessions. */
export type SaveOutcome =
  | { kind: 'ok'; text: string; secrets: boolean }
  /** `texts`: what went wrong and why, a paragraph each; `support`: who to turn to when it persists. */
  | { kind: 'error'; texts: string[]; support: boolean }
  | undefined;

export type SubmitSettings = (body: FlowValues) => Promise<Submitted<SettingsFlow>>;

/** The provider's own messages about the whole form (such as 4000007, an address in use), in Dutch. */
const flowErrors = (ui: unknown) =>
  ((ui as FlowUi | undefined)?.messages ?? []).filter((m) => m.type === 'error').map((m) => translate(m));

/** The provider's messages on a node, in Dutch, for showing under our own field. */
export const nodeErrors = (flow: SettingsFlow | undefined, name: string) =>
  ((flow?.ui as unknown as FlowUi | undefined)?.nodes ?? [])
    .filter((n) => n.attributes.name === name)
    .flatMap((n) => n.messages.filter((m) => m.type === 'error').map((m) => translate(m, name)))[0];

/**
 * A settings section's save: `send` posts one step and, when it fails, keeps why as the outcome (the provider's reason
 * when it gives one for the whole form, else `failure`); `outcome` is shown by `SaveOutcomeAlert`.
 */
export function useSettingsSave(submit: SubmitSettings) {
  const [outcome, setOutcome] = useState<SaveOutcome>();
  async function send(body: FlowValues, failure: string): Promise<boolean> {
    const sent = await submit(body);
    if (sent.kind === 'done') return true;
    if (sent.kind === 'refused') {
      const reasons = flowErrors(sent.flow.ui);
      setOutcome({ kind: 'error', texts: reasons.length > 0 ? reasons : [failure], support: false });
    }
    if (sent.kind === 'unreachable') setOutcome({ kind: 'error', texts: [failure, UNREACHABLE], support: true });
    if (sent.kind === 'busy') setOutcome({ kind: 'error', texts: [failure, BUSY], support: false });
    // Signing in again (an old session), a restarted form or sign-in when signed out said why on their own.
    if (sent.kind === 'failed') setOutcome({ kind: 'error', texts: [failure], support: true });
    return false;
  }
  return { outcome, setOutcome, send };
}

/** What a save came to, in a live region that takes the focus (WCAG 4.1.3, 2.4.3). */
export function SaveOutcomeAlert({ outcome }: { outcome: SaveOutcome }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) ref.current?.focus();
  }, [outcome]);
  if (!outcome) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`utrecht-alert utrecht-alert--${outcome.kind}`}
      role={outcome.kind === 'error' ? 'alert' : 'status'}
    >
      {outcome.kind === 'ok' ? (
        <p className="utrecht-paragraph">{outcome.text}</p>
      ) : (
        <>
          {outcome.texts.map((text) => (
            <p key={text} className="utrecht-paragraph">
              {text}
            </p>
          ))}
          {outcome.support && <SupportContact />}
        </>
      )}
    </div>
  );
}
