/** Numbered steps, a check mark for the steps done and the current one highlighted. */
export function ProgressSteps({ steps, current }: { steps: string[]; current: number }) {
  return (
    <ol className="dvp-steps" aria-label="Voortgang">
      {steps.map((step, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'todo';
        return (
          <li
            key={step}
            className={`dvp-step dvp-step--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="dvp-step__marker" aria-hidden="true">
              {state === 'done' ? '✓' : index + 1}
            </span>
            <span>
              {step}
              {state === 'done' && <span className="dvp-visually-hidden"> (klaar)</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export const RECOVERY_STEPS = ['Account verifiëren', 'Wachtwoord instellen', '2FA configureren', 'Klaar!'];
export const VERIFICATION_STEPS = ['Account verifiëren', '2FA configureren', 'Klaar!'];
