import type { PendingInvitation } from '../api/users-api';
import { longDateTime } from '../i18n/dates';
import { useAcceptInvitation, useDeclineInvitation } from './use-memberships';

/** The id of the list's heading. */
export const INVITATIONS_HEADING = 'dvp-uitnodigingen';

interface InvitationListProps {
  invitations: PendingInvitation[];
  /** After an answer: the invitation, and the button pressed, are gone. */
  onAnswered(): void;
}

/**
 * On /settings: the invitations waiting for the person's consent, each with who invited, what for and until when.
 * Rendered also without invitations (as nothing), so that an answer's callback still finds it after the last one went.
 */
export function InvitationList({ invitations, onAnswered }: InvitationListProps) {
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const busy = accept.isPending || decline.isPending;
  if (invitations.length === 0) return null;

  // The buttons stay enabled (and focused) while an answer is under way; a second press is ignored.
  function answer(invitation: PendingInvitation, yes: boolean) {
    if (busy) return;
    (yes ? accept : decline).mutate(invitation, { onSuccess: onAnswered });
  }

  return (
    <>
      {/* Where the notice's link brings the focus (OrganisationsSection). */}
      <h3 id={INVITATIONS_HEADING} className="utrecht-heading-3" tabIndex={-1}>
        Uitnodigingen
      </h3>
      <ul className="dvp-invitations" aria-busy={busy}>
        {invitations.map((invitation) => {
          const label = invitation.organisation.label;
          const roles = invitation.dataRoles.map((role) => role.label).join(', ');
          return (
            <li key={invitation.id} className="dvp-invitations__item">
              <p className="utrecht-paragraph">
                <strong>{label}</strong>
              </p>
              <p className="utrecht-paragraph">
                Uitgenodigd door {invitation.invitedBy}
                {invitation.isAdmin ? ', als beheerder' : ''}.
              </p>
              <p className="utrecht-paragraph">{roles ? `Datarollen: ${roles}.` : 'Zonder datarollen.'}</p>
              <p className="utrecht-paragraph">Geldig tot {longDateTime(invitation.expiresAt)}.</p>
              <div className="dvp-links">
                <button
                  type="button"
                  className="utrecht-button utrecht-button--primary-action"
                  aria-label={`Uitnodiging van ${label} accepteren`}
                  onClick={() => answer(invitation, true)}
                >
                  Accepteren
                </button>
                <button
                  type="button"
                  className="utrecht-button utrecht-button--secondary-action"
                  aria-label={`Uitnodiging van ${label} weigeren`}
                  onClick={() => answer(invitation, false)}
                >
                  Weigeren
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
