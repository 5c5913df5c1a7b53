import type { ReviewDecision, ReviewPerson } from './review-api';
import { factorKindNames } from '../overview/factors';
import { longDateTime } from '../i18n/dates';

interface ReviewPersonCardProps {
  person: ReviewPerson;
  decisionOf(roleId: string): ReviewDecision | undefined;
  onDecide(roleId: string, decision: ReviewDecision): void;
}

const CHOICES: { decision: ReviewDecision; label: string }[] = [
  { decision: 'keep', label: 'Behouden' },
  { decision: 'withdraw', label: 'Intrekken' },
];

/** The id of a data role's choice of a person, for the error summary's link to the first one still open. */
export const choiceId = (userId: string, roleId: string) => `review-${userId}-${roleId}`;

function factorsText(factors: ReviewPerson['factors']): string {
  if (factors === null) return 'niet zichtbaar (andere thuisorganisatie)';
  return factorKindNames(factors).join(', ') || 'geen';
}

/** One person in the review: who, when they last signed in, their second factor, and a choice per data role. */
export function ReviewPersonCard({ person, decisionOf, onDecide }: ReviewPersonCardProps) {
  const name = `${person.name.first} ${person.name.last}`;
  const headingId = `review-person-${person.userId}`;
  return (
    <section className="dvp-review-person" aria-labelledby={headingId}>
      <h3 id={headingId} className="utrecht-heading-3">
        {name}
      </h3>
      <dl className="dvp-review-person__facts">
        <div>
          <dt>E-mailadres</dt>
          <dd className="dvp-review-person__email">{person.email}</dd>
        </div>
        <div>
          <dt>Laatst ingelogd</dt>
          <dd>{person.lastSignInAt ? longDateTime(person.lastSignInAt) : 'Nog nooit'}</dd>
        </div>
        <div>
          <dt>Tweede factor</dt>
          <dd>{factorsText(person.factors)}</dd>
        </div>
      </dl>
      {person.dataRoles.map((role) => {
        const id = choiceId(person.userId, role.roleId);
        const chosen = decisionOf(role.roleId);
        return (
          <fieldset key={role.roleId} className="dvp-review-choice" id={id} tabIndex={-1}>
            <legend className="utrecht-form-label">
              {role.label}
              <span className="dvp-visually-hidden"> van {name}</span>
            </legend>
            <div className="dvp-review-choice__options">
              {CHOICES.map(({ decision, label }) => (
                <label key={decision} className="dvp-review-choice__option">
                  <input
                    type="radio"
                    name={id}
                    value={decision}
                    checked={chosen === decision}
                    onChange={() => onDecide(role.roleId, decision)}
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
    </section>
  );
}
