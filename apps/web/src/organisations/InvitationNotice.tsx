import { Link } from 'react-router';
import type { PendingInvitation } from '../api/users-api';

const list = new Intl.ListFormat('nl', { style: 'long', type: 'conjunction' });

/**
 * Above every page in the sidebar layout while invitations wait for the person's answer, given on /settings: in a
 * region of its own ('Uitnodigingen'), since it stands outside the screen's main content.
 */
export function InvitationNotice({ invitations }: { invitations: PendingInvitation[] }) {
  if (invitations.length === 0) return null;
  const organisations = list.format(invitations.map((invitation) => invitation.organisation.label));
  return (
    <section className="dvp-invitation-notice" aria-label="Uitnodigingen">
      <div className="utrecht-alert utrecht-alert--info" role="status">
        <p className="utrecht-paragraph">
          Je bent uitgenodigd voor {organisations}.{' '}
          <Link className="utrecht-link" to="/settings#organisaties">
            {invitations.length === 1 ? 'Bekijk de uitnodiging' : 'Bekijk de uitnodigingen'}
          </Link>
        </p>
      </div>
    </section>
  );
}
