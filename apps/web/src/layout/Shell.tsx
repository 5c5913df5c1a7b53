import { useEffect, type ReactNode } from 'react';
import { NavLink, Navigate, useLocation } from 'react-router';
import { useCurrentUser, useOrganisationAdmins } from '../api/queries';
import { secondFactorGateBackTo } from '../api/users-api';
import { MobileNav } from './MobileNav';
import { IdleWarning } from '../sessions/IdleWarning';
import { InvitationNotice } from '../organisations/InvitationNotice';
import { OrganisationSwitcher } from '../organisations/OrganisationSwitcher';
import { gateState } from '../organisations/second-factor-reason';
import { keepReturnTo } from './return-to';
import { Loading } from '../components/Loading';
import { FeedbackContact } from '../components/FeedbackContact';

interface NavItem {
  to: string;
  label: string;
  /** Also current on the pages under it ('Programmabeheer' and its 'Datavoorzieningen'). */
  section?: boolean;
}

/**
 * The sidebar layout: who is signed in, the four links (and 'Programmabeheer' for a programme administrator),
 * questions and feedback addresses; for people in several organisations the switch between them, and above the
 * content the invitations waiting for an answer.
 * Under the medium breakpoint the sidebar is a band under the header: the person and the switch, and a 'Menu' button
 * that opens the links and addresses (MobileNav). The landmarks have names of their own: 'Account' (the sidebar),
 * 'Hoofdmenu' (the links) and 'Uitnodigingen' (InvitationNotice).
 */
export function Shell({ children }: { children: ReactNode }) {
  const location = useLocation();
  const user = useCurrentUser();
  // The Users API answers at aal2, or at aal1 for members of an organisation that needs no second factor.
  const mayAsk = user.data?.authenticator_assurance_level === 'aal2' || user.data?.aal2Required === false;
  const admins = useOrganisationAdmins(Boolean(user.data?.activeOrg) && mayAsk);

  // A return_to in the address is kept, with the hash, for after sign-in: when the person is sent there.
  const signedOut = user.isError;
  useEffect(() => {
    const returnTo = new URLSearchParams(location.search).get('return_to');
    if (returnTo && signedOut) keepReturnTo(returnTo, location.hash);
  }, [location.search, location.hash, signedOut]);

  if (user.isPending) return <Loading />;
  if (user.isError || !user.data) return <Navigate to="/login" replace />;
  const me = user.data;
  const gate = secondFactorGateBackTo(me, `${location.pathname}${location.search}`);
  // The gate says why the person is there: the organisations that ask for a second factor.
  if (gate) return <Navigate to={gate} replace state={gateState(me)} />;
  const org = me.activeOrg;
  // 'als beheerder' for every administrator of the organisation, as the overview lists them ('Beheerder'); the
  // dashboard link only for those who may open it (`isAdmin`: the allow-list, docs/architecture.md, included).
  const administers =
    me.isAdmin ||
    me.identity.userType?.id === 'administrator' ||
    Boolean(me.organisations?.some((membership) => membership.active && membership.isAdmin));
  const navItems: NavItem[] = [
    ...(me.isAdmin ? [{ to: '/', label: 'Administratie dashboard' }] : []),
    { to: '/permissies', label: 'Datavoorzieningen' },
    ...(me.isProgrammeAdmin ? [{ to: '/programmabeheer', label: 'Programmabeheer', section: true }] : []),
    { to: '/settings', label: 'Account instellingen' },
    { to: '/uitloggen', label: 'Uitloggen' },
  ];
  const questionAddresses = (admins.data ?? []).slice(0, 2);
  return (
    <div className="dvp-shell">
      {/* The programme's name and description head every page (PageHeader), above this sidebar. */}
      <aside className="dvp-sidebar" aria-label="Account">
        <div className="dvp-sidebar__person">
          <p className="utrecht-paragraph">
            <strong>
              {me.identity.traits.name.first} {me.identity.traits.name.last}
            </strong>
          </p>
          {org && (
            <p className="utrecht-paragraph">
              Je bent ingelogd{administers ? ' als beheerder' : ''} voor {org.label}
            </p>
          )}
          {/* A programme administrator may belong to no organisation: then the role is what they are signed in as. */}
          {!org && me.isProgrammeAdmin && <p className="utrecht-paragraph">Je bent ingelogd als programmabeheerder</p>}
        </div>
        <div className="dvp-sidebar__switcher">
          <OrganisationSwitcher organisations={me.organisations ?? []} />
        </div>
        <MobileNav>
          <nav aria-label="Hoofdmenu">
            <ul>
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink className="utrecht-link" to={item.to} end={!item.section}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {org && questionAddresses.length > 0 && (
            <section aria-labelledby="dvp-vraag">
              <h2 id="dvp-vraag" className="utrecht-heading-3">
                Heb je een vraag?
              </h2>
              <ul>
                {questionAddresses.map((admin) => (
                  <li key={admin.id}>
                    <a className="utrecht-link" href={`mailto:${admin.traits.email}`}>
                      {admin.traits.email}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <FeedbackContact />
        </MobileNav>
      </aside>
      <div className="dvp-content">
        <InvitationNotice invitations={me.invitations ?? []} />
        {children}
      </div>
      <IdleWarning />
    </div>
  );
}
