import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Shell } from '../layout/Shell';
import { axeViolations } from '../test-axe';
import { Address, renderAt } from '../test-support';
import { invitationFrom, membershipServer, VOORBEELDSTAD } from './membership-fixtures';

/** The notice, once the sidebar layout is there (before that, 'Laden…' is a status too). */
const notice = async () => (await screen.findByText(/Je bent uitgenodigd/)).closest('[role="status"]');

const routes = (
  <>
    <Route path="/permissies" element={<Shell>inhoud</Shell>} />
    <Route path="/settings" element={<Address />} />
  </>
);

afterEach(() => vi.unstubAllGlobals());

describe('InvitationNotice above every page in the sidebar layout', () => {
  it('names the inviting organisation and leads to the invitation in the account settings', async () => {
    membershipServer({ organisations: [VOORBEELDSTAD], invitations: [invitationFrom('dego', 'DEGO')] });
    const { container } = renderAt('/permissies', routes);
    const shown = await notice();
    expect(shown).toHaveTextContent('Je bent uitgenodigd voor DEGO. Bekijk de uitnodiging');
    expect(shown).toHaveClass('utrecht-alert', 'utrecht-alert--info');
    // Above the content, outside the sidebar, in a landmark of its own.
    expect(screen.getByRole('complementary', { name: 'Account' })).not.toContainElement(shown as HTMLElement);
    expect(screen.getByRole('region', { name: 'Uitnodigingen' })).toContainElement(shown as HTMLElement);
    expect(screen.getByRole('link', { name: 'Bekijk de uitnodiging' })).toHaveAttribute(
      'href',
      '/settings#organisaties',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('link', { name: 'Bekijk de uitnodiging' }));
    expect(await screen.findByText('Adres: /settings')).toBeInTheDocument();
  });

  it('sums up several invitations in one sentence', async () => {
    membershipServer({
      organisations: [VOORBEELDSTAD],
      invitations: [invitationFrom('dego', 'DEGO'), invitationFrom('dijkstad', 'Gemeente Dijkstad')],
    });
    renderAt('/permissies', routes);
    expect(await notice()).toHaveTextContent(
      'Je bent uitgenodigd voor DEGO en Gemeente Dijkstad. Bekijk de uitnodigingen',
    );
    expect(screen.getByRole('link', { name: 'Bekijk de uitnodigingen' })).toHaveAttribute(
      'href',
      '/settings#organisaties',
    );
  });

  it('is not there without invitations', async () => {
    membershipServer({ organisations: [VOORBEELDSTAD] });
    renderAt('/permissies', routes);
    await screen.findByText('Bea Beheerder');
    expect(screen.queryByText(/Je bent uitgenodigd/)).toBeNull();
  });
});
