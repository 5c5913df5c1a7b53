import { cleanup, screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import axe from 'axe-core';
import { fakeNetwork, renderAt } from '../test-support';
import { whoamiOf } from '../test-users-api';
import { useSecondFactorReason } from '../organisations/second-factor-reason';
import { Shell } from './Shell';

const me = (
  isAdmin: boolean,
  session: { authenticator_assurance_level: string; aal2Required: boolean } = {
    authenticator_assurance_level: 'aal2',
    aal2Required: true,
  },
) =>
  whoamiOf({
    activeOrg: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad', subdivisions: [] },
    isAdmin,
    ...session,
  });

function network(isAdmin: boolean, session?: Parameters<typeof me>[1]) {
  return fakeNetwork((url) => {
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me(isAdmin, session) };
    if (url.pathname === '/api/config')
      return {
        status: 200,
        body: {
          title: 'Datavoorzieningen VNG',
          description: 'Datavoorziening VNG Realisatie',
          feedbackEmail: 'feedback@example.nl',
        },
      };
    if (url.pathname === '/api/users/admins') {
      return {
        status: 200,
        body: ['a@x.nl', 'b@x.nl', 'c@x.nl'].map((email, i) => ({ id: String(i), state: 'active', traits: { email } })),
      };
    }
    return undefined;
  });
}

afterEach(() => vi.unstubAllGlobals());

/** The second-factor gate's screen, saying why the sidebar layout sent the person there. */
function Gate() {
  return <p>Koppelen. {useSecondFactorReason()}</p>;
}

describe('Shell', () => {
  it('shows who is signed in as administrator, the four links, 2 administrator and 1 feedback address', async () => {
    network(true);
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    expect(await screen.findByText('Bea Beheerder')).toBeInTheDocument();
    expect(screen.getByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Hoofdmenu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Administratie dashboard', 'Datavoorzieningen', 'Account instellingen', 'Uitloggen']);
    const question = await screen.findByRole('heading', { name: 'Heb je een vraag?' });
    expect(
      within(question.closest('section')!)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['a@x.nl', 'b@x.nl']);
    expect(screen.getByRole('heading', { name: 'Voor feedback en foutmeldingen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'feedback@example.nl' })).toHaveAttribute(
      'href',
      'mailto:feedback@example.nl',
    );
  });

  it('marks the page the person is on in the menu, and only that one (aria-current)', async () => {
    network(true);
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    const menu = await screen.findByRole('navigation', { name: 'Hoofdmenu' });
    expect(within(menu).getByRole('link', { name: 'Datavoorzieningen' })).toHaveAttribute('aria-current', 'page');
    expect(
      within(menu)
        .getAllByRole('link')
        .filter((link) => link.hasAttribute('aria-current')),
    ).toHaveLength(1);
    // One menu at every width: on a narrow screen the 'Menu' button opens the same links.
    expect(screen.getAllByRole('navigation')).toEqual([menu]);
  });

  it("names each landmark uniquely: 'Account', 'Hoofdmenu', and the 'Menu' button inside the sidebar", async () => {
    network(true);
    const { container } = renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    const sidebar = await screen.findByRole('complementary', { name: 'Account' });
    expect(within(sidebar).getByText('Bea Beheerder')).toBeInTheDocument();
    expect(within(sidebar).getByRole('navigation', { name: 'Hoofdmenu' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    await screen.findByRole('heading', { name: 'Heb je een vraag?' });
    const unique = await axe.run(container, { runOnly: ['landmark-unique'] });
    expect(unique.passes.map((rule) => rule.id)).toEqual(['landmark-unique']);
    expect(unique.violations).toEqual([]);
  });

  it('leaves out the dashboard link and the administrator wording for other members', async () => {
    network(false);
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    expect(await screen.findByText('Je bent ingelogd voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Administratie dashboard' })).toBeNull();
  });

  it('says "als beheerder" also for an administrator who is not on the dashboard allow-list, no link', async () => {
    fakeNetwork((url) => {
      if (url.pathname === '/api/users/whoami') {
        const body = me(false);
        return {
          status: 200,
          body: { ...body, identity: { ...body.identity, userType: { id: 'administrator', label: 'Beheerder' } } },
        };
      }
      if (url.pathname === '/api/config') return { status: 200, body: { title: 'Datavoorzieningen VNG' } };
      if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
      return undefined;
    });
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    expect(await screen.findByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Administratie dashboard' })).toBeNull();
  });

  it('shows the administrators to ask also without a second factor where none is needed, else after it', async () => {
    network(false, { authenticator_assurance_level: 'aal1', aal2Required: false });
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    const question = await screen.findByRole('heading', { name: 'Heb je een vraag?' });
    expect(
      within(question.closest('section')!)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['a@x.nl', 'b@x.nl']);
    vi.unstubAllGlobals();
    cleanup();
    const calls = network(false, { authenticator_assurance_level: 'aal1', aal2Required: true });
    renderAt(
      '/permissies',
      <>
        <Route path="/permissies" element={<Shell>inhoud</Shell>} />
        <Route path="/login" element={<p>Tweede stap</p>} />
      </>,
    );
    expect(await screen.findByText('Tweede stap')).toBeInTheDocument();
    expect(calls.some((call) => call.url.pathname === '/api/users/admins')).toBe(false);
  });

  it('keeps a return_to of the address, with the hash, in local storage when sending one to sign in', async () => {
    fakeNetwork(() => ({ status: 401, body: { error: { id: 'session_inactive' } } }));
    renderAt(
      '/permissies?return_to=%2Fsettings#boven',
      <>
        <Route path="/permissies" element={<Shell>inhoud</Shell>} />
        <Route path="/login" element={<p>Inlog-pagina</p>} />
      </>,
    );
    await screen.findByText('Inlog-pagina');
    expect(window.localStorage.getItem('dvp-return-to')).toBe('/settings#boven');
    window.localStorage.clear();
  });

  it('keeps nothing for a person who is signed in: there is no sign-in to come back from', async () => {
    network(false);
    renderAt('/permissies?return_to=%2Fsettings#boven', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    await screen.findByText('Bea Beheerder');
    expect(window.localStorage.getItem('dvp-return-to')).toBeNull();
  });

  it("shows 'Programmabeheer' in the menu to programme administrators only", async () => {
    fakeNetwork((url) => {
      if (url.pathname === '/api/users/whoami') return { status: 200, body: { ...me(true), isProgrammeAdmin: true } };
      if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
      return undefined;
    });
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    const menu = await screen.findByRole('navigation', { name: 'Hoofdmenu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Administratie dashboard', 'Datavoorzieningen', 'Programmabeheer', 'Account instellingen', 'Uitloggen']);
    expect(within(menu).getByRole('link', { name: 'Programmabeheer' })).toHaveAttribute('href', '/programmabeheer');
    vi.unstubAllGlobals();
    cleanup();

    network(true);
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    const other = await screen.findByRole('navigation', { name: 'Hoofdmenu' });
    expect(within(other).getByRole('link', { name: 'Datavoorzieningen' })).toBeInTheDocument();
    expect(within(other).queryByRole('link', { name: 'Programmabeheer' })).toBeNull();
  });

  it('lets in a programme administrator of no organisation, after the second factor the role asks for', async () => {
    const pim = (session: { authenticator_assurance_level: string; credentials: string[] }) =>
      whoamiOf({
        identity: {
          id: 'pim',
          traits: { email: 'pim@programma.nl', name: { first: 'Pim', last: 'Programma' } },
          credentials: session.credentials,
        },
        activeOrg: null,
        isAdmin: false,
        organisations: [],
        isProgrammeAdmin: true,
        aal2Required: true,
        authenticator_assurance_level: session.authenticator_assurance_level,
      });
    const calls = fakeNetwork((url) =>
      url.pathname === '/api/users/whoami'
        ? { status: 200, body: pim({ authenticator_assurance_level: 'aal2', credentials: ['password', 'totp'] }) }
        : undefined,
    );
    renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
    expect(await screen.findByText('Je bent ingelogd als programmabeheerder')).toBeInTheDocument();
    expect(screen.queryByText(/ingelogd.* voor /)).toBeNull();
    const menu = screen.getByRole('navigation', { name: 'Hoofdmenu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Datavoorzieningen', 'Programmabeheer', 'Account instellingen', 'Uitloggen']);
    // No organisation: no administrators to ask.
    expect(calls.some((call) => call.url.pathname === '/api/users/admins')).toBe(false);
    vi.unstubAllGlobals();
    cleanup();

    // Without a second factor yet: linking one comes first, and the gate says why.
    fakeNetwork((url) =>
      url.pathname === '/api/users/whoami'
        ? { status: 200, body: pim({ authenticator_assurance_level: 'aal1', credentials: ['password'] }) }
        : undefined,
    );
    renderAt(
      '/programmabeheer',
      <>
        <Route path="/programmabeheer" element={<Shell>inhoud</Shell>} />
        <Route path="/settings/2fa-app" element={<Gate />} />
      </>,
    );
    expect(
      await screen.findByText('Koppelen. Als programmabeheerder log je altijd in met een tweede factor.'),
    ).toBeInTheDocument();
  });
});
