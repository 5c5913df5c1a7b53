/**
 * Numbered steps, a check mark for the steps done and the current one highlighted: on one line, or where they do not
 * fit (a phone) only the current one as 'Stap 2 van 4: Wachtwoord instellen' (styles/layout.css). The list stays
 * whole for assistive technology, which counts its items itself.
 */
export function ProgressSteps({ steps, current }: { steps: string[]; current: number }) {
  return (
    <div className="dvp-steps">
      <ol aria-label="Voortgang">
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
              {/* The count is the CSS's, out of the text that assistive technology reads. */}
              <span className="dvp-step__name" data-count={`Stap ${index + 1} van ${steps.length}: `}>
                {step}
                {state === 'done' && <span className="dvp-visually-hidden"> (klaar)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export const RECOVERY_STEPS = ['Account verifiëren', 'Wachtwoord instellen', '2FA configureren', 'Klaar!'];
export const VERIFICATION_STEPS = ['Account verifiëren', '2FA configureren', 'Klaar!'];
