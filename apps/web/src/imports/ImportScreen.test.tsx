import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, captureDownloads, fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { whoamiOf } from '../test-users-api';
import ImportScreen from './ImportScreen';

const ID = '0190a1b2-0000-7000-8000-0000000000aa';
const ROWS = [
  {
    line: 2,
    email: 'noor@voorbeeldstad.nl',
    first: 'Noor',
    last: 'de Vries',
    dataRoles: ['Sociaal domein'],
    admin: false,
    plan: 'create',
    outcome: null,
    reason: null,
  },
  {
    line: 3,
    email: 'geen-adres',
    first: 'Fout',
    last: 'Adres',
    dataRoles: [],
    admin: false,
    plan: 'refused',
    outcome: null,
    reason: 'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
  },
];
const PLANS = { create: 1, invite: 0, add: 0, unchanged: 0, refused: 1 };
const NONE = { created: 0, invited: 0, added: 0, unchanged: 0, refused: 0, failed: 0 };

const routes = (
  <>
    <Route
      path="/importeren"
      element={
        <>
          <ImportScreen />
          <Address />
        </>
      }
    />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
  </>
);

/** The Users API for an import: a preview of two rows, then running with one done, then done. */
function importServer() {
  let polls = 0;
  let started = false;
  const job = (state: string, done: number, outcomes = NONE) => ({
    id: ID,
    fileName: 'collega-s.csv',
    state,
    createdAt: '2026-11-27T10:00:00.000Z',
    progress: { total: 2, done, plans: PLANS, outcomes },
  });
  return fakeNetwork((url, init) => {
    if (url.pathname === '/api/users/whoami') return { status: 200, body: whoamiOf() };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/imports' && init?.method === 'POST') {
      const { csv } = JSON.parse(String(init.body)) as { csv: string };
      if (!csv.includes('E-mailadres')) {
        const message = "De eerste regel noemt geen kolom 'E-mailadres'.";
        return { status: 400, body: { error: { code: 400, message } } };
      }
      return { status: 201, body: { ...job('preview', 0), rows: ROWS } };
    }
    if (url.pathname === `/api/imports/${ID}/start`) {
      started = true;
      return { status: 202, body: job('running', 0) };
    }
    if (url.pathname === `/api/imports/${ID}`) {
      if (!started) return { status: 200, body: job('preview', 0) };
      polls += 1;
      return { status: 200, body: polls < 2 ? job('running', 1) : job('done', 2, { ...NONE, created: 1, refused: 1 }) };
    }
    if (url.pathname === `/api/imports/${ID}/rows`)
      return {
        status: 200,
        body: started
          ? [
              { ...ROWS[0], outcome: 'created' },
              { ...ROWS[1], outcome: 'refused' },
            ]
          : ROWS,
      };
    return undefined;
  });
}

const csvFile = (text: string) => new File([text], 'collega-s.csv', { type: 'text/csv' });

afterEach(() => vi.unstubAllGlobals());

describe('ImportScreen', () => {
  it('checks a file, shows per row what will happen, imports with progress and says what was done', async () => {
    const calls = importServer();
    const { container } = renderAt('/importeren', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Personen importeren' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Controleren' }));
    expect(screen.getByText('Kies een CSV-bestand.')).toBeInTheDocument();
    expect(screen.getByLabelText('CSV-bestand')).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.upload(screen.getByLabelText('CSV-bestand'), csvFile('E-mailadres\nnoor@voorbeeldstad.nl'));
    await userEvent.click(screen.getByRole('button', { name: 'Controleren' }));
    expect(
      await screen.findByText(
        'Als je importeert: 1 nieuw account, 0 uitnodigingen, 0 aangevuld, 0 ongewijzigd, 1 geweigerd.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(`Adres: /importeren?import=${ID}`)).toBeInTheDocument();
    const refused = screen.getAllByRole('row')[2]!;
    expect(within(refused).getByText('Geweigerd')).toBeInTheDocument();
    expect(within(refused).getByText(/niet herkent als valide e-mailadres/)).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Importeren' }));
    const done = await screen.findByText(
      'De import is klaar: 1 account aangemaakt, 0 uitgenodigd, 0 aangevuld, 0 ongewijzigd, 1 geweigerd.',
      {},
      { timeout: 5_000 },
    );
    await waitFor(() => expect(done.parentElement).toHaveFocus());
    expect(screen.getByText('Account aangemaakt en uitgenodigd')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verslag downloaden (CSV)' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url.pathname === `/api/imports/${ID}/start`)).toHaveLength(1);
  });

  it("says why a file is refused, and offers no 'Importeren' for a member", async () => {
    importServer();
    renderAt('/importeren', routes);
    await userEvent.upload(await screen.findByLabelText('CSV-bestand'), csvFile('Naam;Adres\nx;y'));
    await userEvent.click(screen.getByRole('button', { name: 'Controleren' }));
    expect(await screen.findByText("De eerste regel noemt geen kolom 'E-mailadres'.")).toBeInTheDocument();
    vi.unstubAllGlobals();

    fakeNetwork((url) =>
      url.pathname === '/api/users/whoami' ? { status: 200, body: whoamiOf({ isAdmin: false }) } : undefined,
    );
    renderAt('/importeren', routes);
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });

  it("offers an example file with the columns and one of the organisation's data roles", async () => {
    importServer();
    const downloads = captureDownloads();
    try {
      renderAt('/importeren', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Voorbeeldbestand downloaden (CSV)' }));
      expect(downloads.files.map((file) => file.name)).toEqual(['personen-importeren-voorbeeld.csv']);
      const bytes = new Uint8Array(await downloads.files[0]!.blob.arrayBuffer());
      // A byte order mark first, so that Excel reads the file as UTF-8 ('Financiën').
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(new TextDecoder().decode(bytes)).toBe(
        'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder\r\n' +
          'Noor;de Vries;noor.devries@voorbeeld.nl;Ruimte en wonen;nee\r\n',
      );
    } finally {
      downloads.restore();
    }
  });
});
