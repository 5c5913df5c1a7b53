import { screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Shell } from '../layout/Shell';
import { axeViolations } from '../test-axe';
import { fakeNetwork, renderAt } from '../test-support';
import { NO_FEEDBACK_ADDRESS } from './FeedbackContact';

const me = {
  active: true,
  identity: {
    id: 'me',
    traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'Analist' } },
    credentials: ['password', 'totp'],
  },
  permissions: [],
  activeOrg: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad', subdivisions: [] },
  isAdmin: false,
  authenticator_assurance_level: 'aal2',
  aal2Required: true,
};

/** The sidebar of a portal whose configuration sets these addresses (null: not set). */
function sidebarWith(addresses: { feedbackEmail: string | null; supportEmail: string | null }) {
  fakeNetwork((url) => {
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me };
    if (url.pathname === '/api/config')
      return { status: 200, body: { title: 'Datavoorzieningen VNG', description: 'x', ...addresses } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    return undefined;
  });
  return renderAt('/permissies', <Route path="/permissies" element={<Shell>inhoud</Shell>} />);
}

const feedback = async () =>
  (await screen.findByRole('heading', { name: 'Voor feedback en foutmeldingen' })).closest('section')!;

afterEach(() => vi.unstubAllGlobals());

describe("The sidebar's 'Voor feedback en foutmeldingen'", () => {
  it('links the feedback address when FEEDBACK_EMAIL is set', async () => {
    sidebarWith({ feedbackEmail: 'feedback@voorbeeldstad.nl', supportEmail: 'hulp@voorbeeldstad.nl' });
    expect(within(await feedback()).getByRole('link')).toHaveAttribute('href', 'mailto:feedback@voorbeeldstad.nl');
  });

  it('links the support address when only SUPPORT_EMAIL is set', async () => {
    sidebarWith({ feedbackEmail: null, supportEmail: 'hulp@voorbeeldstad.nl' });
    expect(within(await feedback()).getByRole('link', { name: 'hulp@voorbeeldstad.nl' })).toHaveAttribute(
      'href',
      'mailto:hulp@voorbeeldstad.nl',
    );
  });

  it('says whom to turn to when neither address is set', async () => {
    const { container } = sidebarWith({ feedbackEmail: null, supportEmail: null });
    const section = await feedback();
    expect(section).toHaveTextContent(`Voor feedback en foutmeldingen${NO_FEEDBACK_ADDRESS}`);
    expect(NO_FEEDBACK_ADDRESS).toBe('Neem contact op met de beheerder van je organisatie.');
    expect(within(section).queryByRole('link')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });
});
