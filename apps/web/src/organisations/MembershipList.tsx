import { useState } from 'react';
import type { Membership } from '../api/users-api';
import { ConfirmDialog } from '../overview/ConfirmDialog';
import { failureOf } from '../overview/DialogError';
import { LEAVE_FAILED, useLeaveOrganisation } from './use-memberships';

/** What the person is in an organisation, as one line: home organisation or not, administrator or member. */
const describe = (organisation: Membership) =>
  [organisation.home ? 'Thuisorganisatie' : '', organisation.isAdmin ? 'Beheerder' : 'Medewerker']
    .filter(Boolean)
    .join(' · ');

interface MembershipListProps {
  organisations: Membership[];
  /** After leaving: the row, and the button that opened the dialog, are gone. */
  onLeft(): void;
}

/** On /settings: the person's organisations, each but the home one with 'Verlaten' after a confirmation. */
export function MembershipList({ organisations, onLeft }: MembershipListProps) {
  const [leaving, setLeaving] = useState<Membership>();
  const leave = useLeaveOrganisation();
  const home = organisations.find((organisation) => organisation.home);

  if (organisations.length === 0) {
    return <p className="utrecht-paragraph">Je bent nog geen lid van een organisatie.</p>;
  }
  // On a refusal the dialog stays, with the reason inside it.
  function confirm(organisation: Membership) {
    leave.mutate(organisation, {
      onSuccess: () => {
        setLeaving(undefined);
        onLeft();
      },
    });
  }
  return (
    <>
      <ul className="dvp-memberships">
        {organisations.map((organisation) => (
          <li key={organisation.id} className="dvp-memberships__item">
            <div>
              <p className="utrecht-paragraph">
                <strong>{organisation.label}</strong>
              </p>
              <p className="utrecht-paragraph">{describe(organisation)}</p>
            </div>
            {!organisation.home && (
              <button
                type="button"
                className="utrecht-button utrecht-button--secondary-action"
                aria-label={`${organisation.label} verlaten`}
                onClick={() => {
                  leave.reset();
                  setLeaving(organisation);
                }}
              >
                Verlaten
              </button>
            )}
          </li>
        ))}
      </ul>
      {leaving && (
        <ConfirmDialog
          title="Organisatie verlaten"
          confirmLabel="Verlaten"
          danger
          busy={leave.isPending}
          error={leave.error ? failureOf(leave.error, LEAVE_FAILED) : undefined}
          // Cancelling: the dialog gives the focus back to the row's button itself.
          onClose={() => setLeaving(undefined)}
          onConfirm={() => confirm(leaving)}
        >
          <p className="utrecht-paragraph">
            Weet je zeker dat je {leaving.label} wilt verlaten? Je verliest dan je datarollen
            {leaving.isAdmin ? ' en je beheerdersrol' : ''} bij {leaving.label} en de toegang tot de datavoorzieningen
            die daarbij horen. Je account blijft bestaan.
          </p>
          <p className="utrecht-paragraph">
            {leaving.active && home ? `Je bent daarna weer ingelogd voor ${home.label}. ` : ''}
            Wil je later weer meedoen, dan moet een beheerder van {leaving.label} je opnieuw uitnodigen.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
