import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, captureDownloads, fakeNetwork, renderAt, renderHeldAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { whoamiOf } from '../test-users-api';
import AuditLogScreen from './AuditLogScreen';

const ACTIONS = [
  { action: 'user.block', label: 'Geblokkeerd' },
  { action: 'sign_in.password', label: 'Inloggen met het wachtwoord' },
];

const entry = (n: number, sentence = `Regel ${n}`) => ({
  id: `e${n}`,
  at: `2026-11-${String(27 - Math.floor(n / 10)).padStart(2, '0')}T1${n % 10}:05:00.000Z`,
  action: 'user.block',
  label: 'Geblokkeerd',
  outcome: 'gelukt',
  sentence,
});

const routes = (
  <>
    <Route
      path="/logboek"
      element={
        <>
          <AuditLogScreen />
          <Address />
        </>
      }
    />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
    <Route path="/login" element={<Address />} />
  </>
);

/** The Users API for 'Logboek': two pages unfiltered, one entry for 'anne', a refusal for a period the wrong way. */
function logServer(whoami = whoamiOf()) {
  return fakeNetwork((url) => {
    if (url.pathname === '/api/users/whoami') return { status: 200, body: whoami };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/audit.csv') return { status: 200, text: '\uFEFFDatum en tijd\r\n', type: 'text/csv' };
    if (url.pathname !== '/api/audit') return undefined;
    const query = url.searchParams;
    if (query.get('from') === '2026-11-27' && query.get('until') === '2026-11-01') {
      const error = { code: 400, message: "'Tot en met' ligt voor 'Vanaf'." };
      return { status: 400, body: { error } };
    }
    if (query.get('person') === 'anne') {
      const entries = [entry(1, 'Bea Beheerder heeft Anne de Vries geblokkeerd')];
      return { status: 200, body: { entries, next_page_token: '', actions: ACTIONS } };
    }
    const second = query.get('page_token') === 'p2';
    const entries = second ? [entry(25), entry(26)] : Array.from({ length: 25 }, (_, n) => entry(n));
    return { status: 200, body: { entries, next_page_token: second ? '' : 'p2', actions: ACTIONS } };
  });
}

const auditCalls = (calls: ReturnType<typeof fakeNetwork>) =>
  calls.filter((call) => call.url.pathname.startsWith('/api/audit')).map((call) => call.url.pathname + call.url.search);

const rows = () => screen.getAllByRole('row').slice(1);

afterEach(() => vi.unstubAllGlobals());

describe('AuditLogScreen', () => {
  it('shows the newest entries in sentences, more on request with the focus on the first new one', async () => {
    const calls = logServer();
    const { container } = renderAt('/logboek', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Logboek' })).toBeInTheDocument();
    expect(await screen.findByText('Regel 0')).toBeInTheDocument();
    expect(document.title).toBe('Logboek – Datavoorzieningen Portaal');
    expect(screen.getByText('Wat er in Gemeente Voorbeeldstad is gebeurd, het nieuwste eerst.')).toBeInTheDocument();
    expect(
      within(rows()[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['27 november 2026 om 11:05', 'Regel 0', 'Geblokkeerd', 'Gelukt']);
    expect(screen.getByRole('status')).toHaveTextContent('25 regels getoond');
    await userEvent.click(screen.getByRole('button', { name: 'Meer tonen' }));
    await waitFor(() => expect(rows()).toHaveLength(27));
    await waitFor(() => expect(rows()[25]).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Meer tonen' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('27 regels getoond');
    expect(auditCalls(calls)).toEqual(['/api/audit', '/api/audit?page_token=p2']);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('narrows the log when Filteren is pressed, downloads what is shown, and wipes the filters', async () => {
    const calls = logServer();
    const downloads = captureDownloads();
    try {
      renderAt('/logboek', routes);
      await screen.findByText('Regel 0');
      expect(
        within(screen.getByLabelText('Actie'))
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Alle acties', 'Geblokkeerd', 'Inloggen met het wachtwoord']);
      await userEvent.type(screen.getByLabelText('Persoon (e-mailadres)'), 'anne');
      // Nothing is asked while typing.
      expect(auditCalls(calls)).toEqual(['/api/audit']);
      await userEvent.click(screen.getByRole('button', { name: 'Filteren' }));
      expect(await screen.findByText('Bea Beheerder heeft Anne de Vries geblokkeerd')).toBeInTheDocument();
      expect(rows()).toHaveLength(1);
      await userEvent.click(screen.getByRole('button', { name: 'Deze regels downloaden (CSV)' }));
      await waitFor(() => expect(downloads.files).toHaveLength(1));
      expect(downloads.files[0]!.name).toMatch(/^logboek-voorbeeldstad-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(auditCalls(calls)).toContain('/api/audit.csv?person=anne');
      await userEvent.click(screen.getByRole('button', { name: 'Filters wissen' }));
      await waitFor(() => expect(rows()).toHaveLength(25));
      expect(screen.getByLabelText('Persoon (e-mailadres)')).toHaveValue('');
    } finally {
      downloads.restore();
    }
  });

  it("takes the filter from the address, as a person's 'Logboek' in the overview links it, and keeps it", async () => {
    const calls = logServer();
    renderAt('/logboek?persoon=anne', routes);
    expect(await screen.findByText('Bea Beheerder heeft Anne de Vries geblokkeerd')).toBeInTheDocument();
    expect(screen.getByLabelText('Persoon (e-mailadres)')).toHaveValue('anne');
    expect(screen.getByRole('button', { name: 'Filters wissen' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Actie'), 'Geblokkeerd');
    await userEvent.click(screen.getByRole('button', { name: 'Filteren' }));
    await waitFor(() => expect(auditCalls(calls)).toContain('/api/audit?person=anne&action=user.block'));
    expect(await screen.findByText('Adres: /logboek?persoon=anne&actie=user.block')).toBeInTheDocument();
  });

  it('keeps what the person chose while the address changes (in the browser, a transition)', async () => {
    const calls = logServer();
    const { release } = renderHeldAt('/logboek?persoon=anne', routes);
    await screen.findByText('Bea Beheerder heeft Anne de Vries geblokkeerd');
    await userEvent.click(screen.getByRole('button', { name: 'Filters wissen' }));
    expect(screen.getByLabelText('Persoon (e-mailadres)')).toHaveValue('');
    await userEvent.selectOptions(screen.getByLabelText('Actie'), 'Geblokkeerd');
    await release();
    expect(screen.getByText('Adres: /logboek')).toBeInTheDocument();
    expect(screen.getByLabelText('Actie')).toHaveValue('user.block');
    await userEvent.click(screen.getByRole('button', { name: 'Filteren' }));
    await release();
    expect(screen.getByText('Adres: /logboek?actie=user.block')).toBeInTheDocument();
    await waitFor(() => expect(auditCalls(calls)).toContain('/api/audit?action=user.block'));
  });

  it("says a refused period in Dutch, focused, and sends a non-administrator to 'Datavoorzieningen'", async () => {
    logServer();
    renderAt('/logboek', routes);
    await screen.findByText('Regel 0');
    await userEvent.type(screen.getByLabelText('Vanaf'), '2026-11-27');
    await userEvent.type(screen.getByLabelText('Tot en met'), '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filteren' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("'Tot en met' ligt voor 'Vanaf'.");
    await waitFor(() => expect(alert).toHaveFocus());
    vi.unstubAllGlobals();
    logServer(whoamiOf({ isAdmin: false }));
    renderAt('/logboek', routes);
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });

  it('sends an administrator without the second step to it, and back to the same part of the log', async () => {
    logServer(whoamiOf({ authenticator_assurance_level: 'aal1', secondFactorMet: false }));
    renderAt('/logboek?persoon=anne', routes);
    const back = encodeURIComponent(`${window.location.origin}/logboek?persoon=anne`);
    expect(await screen.findByText(`Adres: /login?aal=aal2&return_to=${back}`)).toBeInTheDocument();
  });
});
