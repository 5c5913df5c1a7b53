import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '../api/queries';
import { InvitationList, INVITATIONS_HEADING } from './InvitationList';
import { keepInView } from './keep-in-view';
import { MembershipList } from './MembershipList';

/** The address of this section (/settings#organisaties), where the invitation notice above every page leads. */
const ANCHOR = 'organisaties';

/**
 * On /settings ('Account instellingen'): the person's organisations, leaving one, and the invitations waiting for an
 * answer. Arriving by the notice's link (#organisaties) brings the focus to the invitations' heading (to 'Organisaties'
 * when none wait any more), kept in view while the sections above it load; after an answer or leaving, the focus
 * comes back to the section's heading, since the buttons pressed are gone.
 */
export function OrganisationsSection() {
  const user = useCurrentUser();
  const location = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The closing dialog hands the focus back to the button that opened it, which leaving or answering removes, so
  // the focus can drop to the page a few frames later: keep it on the heading until things settle, unless the
  // person has moved it elsewhere meanwhile.
  const focusHeading = () => {
    let frames = 0;
    const settle = () => {
      const active = document.activeElement;
      if (!active || active === document.body || active === heading.current) heading.current?.focus();
      if (++frames < 20) window.requestAnimationFrame(settle);
    };
    window.requestAnimationFrame(settle);
  };

  // Each arrival by the link counts, also a second one while the person is on this page already.
  const arrival = location.hash === `#${ANCHOR}` ? location.key : undefined;
  const present = Boolean(user.data?.organisations);
  useEffect(() => {
    if (!present || !arrival) return;
    const target = document.getElementById(INVITATIONS_HEADING) ?? heading.current;
    return target ? keepInView(target) : undefined;
  }, [present, arrival]);

  const organisations = user.data?.organisations;
  if (!organisations) return null;
  const invitations = user.data?.invitations ?? [];
  return (
    <section id={ANCHOR} aria-labelledby="dvp-organisaties">
      <h2 id="dvp-organisaties" className="utrecht-heading-2" tabIndex={-1} ref={heading}>
        Organisaties
      </h2>
      <MembershipList organisations={organisations} onLeft={focusHeading} />
      <InvitationList invitations={invitations} onAnswered={focusHeading} />
    </section>
  );
}
