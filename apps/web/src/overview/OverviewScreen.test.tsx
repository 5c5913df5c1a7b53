import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Address,
  captureDownloads,
  descriptionOf,
  errorSummary,
  fakeNetwork,
  holdBack,
  renderAt,
  summaryItems,
} from '../test-support';
import { axeViolations } from '../test-axe';
import { usersApiAnswer, whoamiOf } from '../test-users-api';
import type { PortalUser } from '../api/users-api';
import OverviewScreen from './OverviewScreen';

const me = whoamiOf;

const user = (id: string, first: string, email: string, extra: Record<string, unknown> = {}) => ({
  id,
  schema_id: 'default',
  state: 'active',
  traits: { email, name: { first, last: 'Test' } },
  created_at: '2026-03-01T12:00:00Z',
  credentials: ['password'],
  verified: true,
  permissions: [
    {
      namespace: 'subdivisions',
      object: 'ruimte_voorbeeldstad',
      relation: 'issuer',
      label: 'Ruimte en wonen',
      roleId: 'ruimte',
    },
  ],
  userType: { id: 'analyst', label: 'Medewerker' },
  ...extra,
});

const list = [
  user('u1', 'Karel', 'karel@voorbeeldstad.nl', { state: 'inactive' }),
  user('me', 'Bea', 'bea@voorbeeldstad.nl', {
    userType: { id: 'administrator', label: 'Beheerder' },
    credentials: ['password', 'totp'],
  }),
  user('u2', 'anna', 'anna@voorbeeldstad.nl'),
];

const routes = (
  <>
    <Route path="/" element={<OverviewScreen />} />
    <Route path="/login" element={<p>Login-pagina</p>} />
    <Route path="/uitloggen" element={<p>Uitlog-pagina</p>} />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
    <Route path="/settings/2fa-app" element={<p>Koppel-pagina</p>} />
  </>
);

function standardNetwork(
  extra?: (url: URL, init?: RequestInit) => { status: number; body?: unknown } | undefined,
  whoami = me(),
) {
  return fakeNetwork((url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url.pathname === '/api/users/whoami') return { status: 200, body: whoami };
    if (url.pathname === '/api/config')
      return {
        status: 200,
        body: {
          title: 'Datavoorzieningen VNG',
          description: 'x',
          supportEmail: 'hulp@example.nl',
          feedbackEmail: null,
        },
      };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    return usersApiAnswer(list as unknown as PortalUser[], url, init);
  });
}

/** The list calls' query strings, in the order the screen made them. */
const listCalls = (calls: ReturnType<typeof fakeNetwork>) =>
  calls
    .filter((call) => call.url.pathname === '/api/users' && (call.init?.method ?? 'GET') === 'GET')
    .map((call) => call.url.search);

/** The table's rows below the header, as their text (a single row when nobody is found). */
const rowTexts = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);
/** The e-mail addresses of the rows shown, in order. */
const rowEmails = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('OverviewScreen', () => {
  it('sends a person without a session to /login and a non-administrator to /permissies', async () => {
    fakeNetwork(() => ({ status: 401, body: { error: { id: 'session_inactive' } } }));
    renderAt('/', routes);
    expect(await screen.findByText('Login-pagina')).toBeInTheDocument();
    vi.unstubAllGlobals();
    standardNetwork(undefined, me({ isAdmin: false }));
    renderAt('/', routes);
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });

  it('sends an administrator without a second factor to link an app, one with an app to the code step', async () => {
    const calls = standardNetwork(
      undefined,
      me({ authenticator_assurance_level: 'aal1', identity: { ...me().identity, credentials: ['password'] } }),
    );
    renderAt('/', routes);
    expect(await screen.findByText('Koppel-pagina')).toBeInTheDocument();
    expect(calls.some((call) => call.url.pathname === '/api/users')).toBe(false);
    vi.unstubAllGlobals();
    standardNetwork(undefined, me({ authenticator_assurance_level: 'aal1' }));
    renderAt('/', routes);
    expect(await screen.findByText('Login-pagina')).toBeInTheDocument();
  });

  it('lists administrators first, strikes through blocked users and writes Dutch dates', async () => {
    standardNetwork();
    renderAt('/', routes);
    const rows = await screen.findAllByRole('row');
    // The name, and under it the notes: here only the link to the person's part of 'Logboek'.
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Bea TestLogboek',
      'anna TestLogboek',
      'Karel TestGeblokkeerdLogboek',
    ]);
    expect(within(rows[2]!).getByRole('link', { name: 'Logboek van anna Test' })).toHaveAttribute(
      'href',
      '/logboek?persoon=anna%40voorbeeldstad.nl',
    );
    expect(rows[3]).toHaveClass('dvp-row--blocked');
    expect(within(rows[1]!).getByText('1 maart 2026')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Type gebruiker' })).toHaveAttribute('aria-sort', 'ascending');
    expect(document.title).toBe('Overzicht – Datavoorzieningen Portaal');
    expect(screen.getByRole('link', { name: 'Logboek bekijken' })).toHaveAttribute('href', '/logboek');
  });

  it('searches name or e-mail at each key, sorted as chosen, and says the count once typing pauses', async () => {
    const calls = standardNetwork();
    renderAt('/', routes);
    await screen.findAllByRole('row');
    await userEvent.selectOptions(screen.getByLabelText('Sorteer op'), 'Naam');
    await waitFor(() =>
      expect(rowEmails()).toEqual(['anna@voorbeeldstad.nl', 'bea@voorbeeldstad.nl', 'karel@voorbeeldstad.nl']),
    );
    await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'KAREL');
    await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(1));
    expect(await screen.findByText('1 gebruiker gevonden')).toHaveAttribute('role', 'status');
    // The rows follow each key; the server is asked for every one of them.
    expect(listCalls(calls)).toEqual([
      '?page=1&per_page=25&sort=type',
      '?page=1&per_page=25&sort=name',
      ...['K', 'KA', 'KAR', 'KARE', 'KAREL'].map((q) => `?page=1&per_page=25&sort=name&q=${q}`),
    ]);
    await userEvent.clear(screen.getByLabelText('Zoek gebruiker'));
    await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(3));
    // 'a' leaves all three, 'an' only anna: screen readers hear the count once, when the typing pauses.
    const status = screen.getByRole('status');
    const spoken: string[] = [];
    const observer = new MutationObserver(() => spoken.push(status.textContent ?? ''));
    observer.observe(status, { childList: true, subtree: true, characterData: true });
    await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'ann');
    await waitFor(() => expect(rowEmails()).toEqual(['anna@voorbeeldstad.nl']));
    await screen.findByText('1 gebruiker gevonden');
    observer.disconnect();
    expect(spoken.filter(Boolean)).toEqual(['1 gebruiker gevonden']);
    await userEvent.clear(screen.getByLabelText('Zoek gebruiker'));
    // A part of the address only (a shorter text to type: each key renders the table again).
    await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'stad.nl');
    await waitFor(() => expect(screen.getByText('3 gebruikers gevonden')).toBeInTheDocument());
    expect(screen.getAllByRole('row').slice(1)).toHaveLength(3);
    await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'x');
    await waitFor(() =>
      expect(rowTexts()).toEqual([
        "Geen gebruikers gevonden bij 'stad.nlx'. Zoek op een deel van de naam of het e-mailadres.",
      ]),
    );
    expect(await screen.findByText('0 gebruikers gevonden')).toBeInTheDocument();
    // Four pauses of the announcement (ANNOUNCE_PAUSE_MS, 500 ms) are waited for in real time: 2 s of the test's time
    // before any work, which on a loaded machine left little of the default 5 s.
  }, 10_000);

  it('filters on a status, which the server decides, with the search and in the CSV download', async () => {
    const calls = standardNetwork();
    const downloads = captureDownloads();
    try {
      renderAt('/', routes);
      await screen.findAllByRole('row');
      const status = screen.getByLabelText('Status');
      expect(
        within(status)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Alle statussen', 'Actief', 'Geblokkeerd', 'Vergrendeld', 'Uitgenodigd', 'Zonder tweede factor']);
      await userEvent.selectOptions(status, 'Geblokkeerd');
      await waitFor(() => expect(rowEmails()).toEqual(['karel@voorbeeldstad.nl']));
      expect(screen.getByText('1 gebruiker gevonden')).toHaveAttribute('role', 'status');
      await userEvent.click(screen.getByRole('button', { name: 'Deze gebruiker downloaden (CSV)' }));
      await waitFor(() => expect(downloads.files).toHaveLength(1));
      await userEvent.selectOptions(status, 'Actief');
      await waitFor(() => expect(rowEmails()).toEqual(['bea@voorbeeldstad.nl', 'anna@voorbeeldstad.nl']));
      await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'anna');
      await waitFor(() => expect(rowEmails()).toEqual(['anna@voorbeeldstad.nl']));
      await userEvent.clear(screen.getByLabelText('Zoek gebruiker'));
      await waitFor(() => expect(rowEmails()).toHaveLength(2));
      await userEvent.selectOptions(status, 'Uitgenodigd');
      await waitFor(() => expect(rowTexts()).toEqual(['Geen gebruikers met deze status.']));
      expect(listCalls(calls)).toEqual([
        '?page=1&per_page=25&sort=type',
        '?page=1&per_page=25&sort=type&status=blocked',
        '?page=1&per_page=25&sort=type&status=active',
        ...['a', 'an', 'ann', 'anna'].map((q) => `?page=1&per_page=25&sort=type&q=${q}&status=active`),
        '?page=1&per_page=25&sort=type&status=invited',
      ]);
      expect(calls.filter((c) => c.url.pathname === '/api/users.csv').map((c) => c.url.search)).toEqual([
        '?sort=type&status=blocked',
      ]);
      await userEvent.selectOptions(status, 'Alle statussen');
      await waitFor(() => expect(rowEmails()).toHaveLength(3));
      expect(await axeViolations(document.body)).toEqual([]);
    } finally {
      downloads.restore();
    }
  });

  it('shows 25 users a page, keeps the focus on Vorige and Volgende, and starts at page 1 after a search', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      user(`p${i}`, `Persoon ${String(i).padStart(3, '0')}`, `p${i}@voorbeeldstad.nl`),
    );
    const calls = standardNetwork((url, init) => usersApiAnswer(many as unknown as PortalUser[], url, init));
    renderAt('/', routes);
    // Queries by role over rows of buttons are slow in jsdom: the rows are read from the table itself.
    const names = () =>
      [...document.querySelectorAll('tbody tr td:first-child')].map((cell) => cell.firstChild?.textContent);
    await screen.findByText('Persoon 000 Test');
    expect(names()).toHaveLength(25);
    expect(document.querySelector('table')).toHaveAccessibleName(
      'Gebruikers van Gemeente Voorbeeldstad, pagina 1 van 3',
    );
    const pages = screen.getByRole('navigation', { name: "Pagina's met gebruikers" });
    const previous = within(pages).getByRole('button', { name: 'Vorige pagina' });
    const next = within(pages).getByRole('button', { name: 'Volgende pagina' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    expect(within(pages).getByRole('status')).toHaveTextContent('Gebruikers 1–25 van 60 (pagina 1 van 3)');

    await userEvent.click(next);
    await userEvent.click(next);
    await waitFor(() => expect(names()).toEqual(many.slice(50).map((person) => `${person.traits.name.first} Test`)));
    expect(within(pages).getByRole('status')).toHaveTextContent('Gebruikers 51–60 van 60 (pagina 3 van 3)');
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(next);
    expect(next).toHaveFocus();
    expect(names()).toHaveLength(10);
    await userEvent.click(previous);
    await waitFor(() => expect(names()[0]).toBe('Persoon 025 Test'));
    // The page shown stays while the next one loads, so the button pressed keeps the focus.
    expect(previous).toHaveFocus();
    // The server was asked for each page once: the click at the last page asks nothing, and page 2, seen seconds ago,
    // comes from the cache (every change made through the portal clears it).
    expect(listCalls(calls)).toEqual([1, 2, 3].map((n) => `?page=${n}&per_page=25&sort=type`));

    // The download has every user, not only the page.
    expect(screen.getByText('Alle gebruikers downloaden (CSV)')).toBeVisible();
    fireEvent.change(screen.getByLabelText('Zoek gebruiker'), { target: { value: 'Persoon 05' } });
    await waitFor(() => expect(names()).toEqual(Array.from({ length: 10 }, (_, i) => `Persoon 05${i} Test`)));
    expect(screen.queryByRole('navigation', { name: "Pagina's met gebruikers" })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Zoek gebruiker'), { target: { value: '' } });
    await waitFor(() => expect(names()[0]).toBe('Persoon 000 Test'));
    expect(screen.getByText('Vorige pagina')).toHaveAttribute('aria-disabled', 'true');
    // Each page is 25 rows of buttons, which jsdom takes its time over on a busy machine.
  }, 20_000);

  it('downloads the server’s CSV file: all users, or those a search leaves, in the order shown', async () => {
    const calls = standardNetwork();
    const downloads = captureDownloads();
    const csvCalls = () => calls.filter((call) => call.url.pathname === '/api/users.csv').map((c) => c.url.search);
    try {
      renderAt('/', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Alle gebruikers downloaden (CSV)' }));
      await waitFor(() => expect(downloads.files).toHaveLength(1));
      const [all] = downloads.files;
      expect(all!.name).toMatch(/^gebruikers-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
      expect(all!.blob.type).toBe('text/csv;charset=utf-8');
      // The server's file as it came, byte order mark included (text() drops it when decoding).
      expect([...new Uint8Array(await all!.blob.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect((await all!.blob.text()).split('\r\n').slice(1, 4)).toEqual([
        'Bea;Test;bea@voorbeeldstad.nl',
        'anna;Test;anna@voorbeeldstad.nl',
        'Karel;Test;karel@voorbeeldstad.nl',
      ]);

      await userEvent.selectOptions(screen.getByLabelText('Sorteer op'), 'E-mailadres');
      await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'karel');
      await userEvent.click(await screen.findByRole('button', { name: 'Deze gebruiker downloaden (CSV)' }));
      await waitFor(() => expect(downloads.files).toHaveLength(2));
      expect((await downloads.files[1]!.blob.text()).split('\r\n').slice(1)).toEqual([
        'Karel;Test;karel@voorbeeldstad.nl',
        '',
      ]);
      expect(csvCalls()).toEqual(['?sort=type', '?sort=email&q=karel']);
      await userEvent.type(screen.getByLabelText('Zoek gebruiker'), 'x');
      await waitFor(() => expect(screen.queryByRole('button', { name: /downloaden \(CSV\)/ })).toBeNull());
    } finally {
      downloads.restore();
    }
  });

  it('says so when the download fails', async () => {
    standardNetwork((url) =>
      url.pathname === '/api/users.csv' ? { status: 500, body: { error: { code: 500 } } } : undefined,
    );
    const downloads = captureDownloads();
    try {
      renderAt('/', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Alle gebruikers downloaden (CSV)' }));
      expect(await screen.findByText('Downloaden is niet gelukt. Probeer het later nog eens.')).toBeInTheDocument();
      expect(downloads.files).toHaveLength(0);
    } finally {
      downloads.restore();
    }
  });

  it('offers Reset 2FA only with a TOTP credential and no block or delete on the own row', async () => {
    standardNetwork();
    renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(within(rows[0]!).getByRole('button', { name: 'Reset 2FA: Bea Test' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /^Blokkeer/ })).toBeNull();
    expect(within(rows[0]!).queryByRole('button', { name: /^Verwijderen/ })).toBeNull();
    expect(within(rows[1]!).queryByRole('button', { name: /^Reset 2FA/ })).toBeNull();
    expect(within(rows[2]!).getByRole('button', { name: 'Deblokkeer: Karel Test' })).toBeInTheDocument();
  });

  it('shows the tooltip that adds words to a row action after 400 ms of hovering, not sooner', async () => {
    standardNetwork();
    renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // user-event waits on setTimeout between its events, which fake timers stop: a mouse moving onto the button.
      const hover = (button: HTMLElement) => {
        fireEvent.pointerMove(button, { pointerType: 'mouse' });
        fireEvent.pointerEnter(button, { pointerType: 'mouse' });
      };
      // 'Bewerken' says it all: a tooltip would only repeat it.
      const edit = within(rows[1]!).getByRole('button', { name: 'Bewerken: anna Test' });
      hover(edit);
      act(() => vi.advanceTimersByTime(1_000));
      expect(screen.queryByRole('tooltip')).toBeNull();
      fireEvent.pointerLeave(edit, { pointerType: 'mouse' });
      hover(within(rows[1]!).getByRole('button', { name: 'Afmelden op alle apparaten: anna Test' }));
      act(() => vi.advanceTimersByTime(399));
      expect(screen.queryByRole('tooltip')).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByRole('tooltip')).toHaveTextContent('Afmelden op alle apparaten');
    } finally {
      vi.useRealTimers();
    }
  });

  it('blocks after confirmation, reloads the list and shows the toast', async () => {
    const calls = standardNetwork((url, init) =>
      url.pathname === '/api/users/u2' && init?.method === 'PUT' ? { status: 200, body: {} } : undefined,
    );
    renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Blokkeer: anna Test' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Gebruiker blokkeren' })).toBeInTheDocument();
    expect(within(dialog).getByText('Weet je zeker dat je de gebruiker wil blokkeren?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Blokkeren' }));
    expect(await screen.findByText('Gebruiker geblokkeerd.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const put = calls.find((c) => c.url.pathname === '/api/users/u2' && c.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toMatchObject({ state: 'inactive' });
  });

  /** The new-user dialog, opened; anna@voorbeeldstad.nl has an account on this server, `created` answers a save. */
  async function newUserDialog(created: { status: number; body: unknown }) {
    const calls = standardNetwork((url, init) => {
      if (url.pathname === '/api/users' && init?.method === 'POST') return created;
      if (url.pathname === '/api/users' && init?.method === 'HEAD')
        return { status: url.searchParams.get('email') === 'anna@voorbeeldstad.nl' ? 200 : 404 };
      return undefined;
    });
    renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    return { calls, dialog: await screen.findByRole('dialog') };
  }

  it('checks the e-mail address on leaving the new-user field; an existing account only gets permissions', async () => {
    const { calls, dialog } = await newUserDialog({ status: 200, body: true });
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'anna@voorbeeldstad.nl');
    await userEvent.tab();
    expect(await within(dialog).findByText('Deze gebruiker heeft al een account.')).toBeInTheDocument();
    // Read-only rather than disabled (the focus stays on a field it is on), and said so.
    expect(within(dialog).getByLabelText('Voornaam')).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Achternaam')).toHaveAttribute('readonly');
    expect(descriptionOf(within(dialog).getByLabelText('Voornaam'))).toBe(
      'Een bestaand account houdt zijn eigen naam.',
    );
    expect(within(dialog).getByLabelText('E-mailadres', { exact: false })).toHaveAttribute('readonly');
    await userEvent.click(within(dialog).getByLabelText('Financiën'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    expect(await screen.findByText('Bestaande gebruiker aangepast')).toBeInTheDocument();
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      traits: { email: 'anna@voorbeeldstad.nl' },
      permissions: [{ namespace: 'subdivisions', object: 'financien_voorbeeldstad', relation: 'issuer' }],
    });
  });

  it('lets a new-user address that turned out to have an account be corrected, and checks it again', async () => {
    const { calls, dialog } = await newUserDialog({ status: 201, body: { id: 'new' } });
    const email = within(dialog).getByLabelText('E-mailadres', { exact: false });
    await userEvent.type(email, 'anna@voorbeeldstad.nl');
    await userEvent.tab();
    await within(dialog).findByText('Deze gebruiker heeft al een account.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ander e-mailadres invullen' }));
    expect(email).toHaveFocus();
    expect(email).not.toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Voornaam')).not.toHaveAttribute('readonly');
    expect(within(dialog).queryByText('Deze gebruiker heeft al een account.')).toBeNull();
    await userEvent.keyboard('anne@voorbeeldstad.nl');
    await userEvent.tab();
    await within(dialog).findByText('E-mailadres is nog niet in gebruik.');
    expect(within(dialog).queryByRole('button', { name: 'Ander e-mailadres invullen' })).toBeNull();
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Anne');
    await userEvent.type(within(dialog).getByLabelText('Achternaam'), 'Jansen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body)).traits).toEqual({
      email: 'anne@voorbeeldstad.nl',
      name: { first: 'Anne', last: 'Jansen' },
    });
  });

  it('refuses an empty name and a bad e-mail with the spec texts', async () => {
    standardNetwork();
    renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'geen-adres');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual([
      'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
      'Vul de naam in van de aan te maken gebruiker.',
    ]);
    expect(descriptionOf(within(dialog).getByLabelText('E-mailadres', { exact: false }))).toContain(
      'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
    );
    expect(descriptionOf(within(dialog).getByLabelText('Voornaam'))).toBe(
      'Vul de naam in van de aan te maken gebruiker.',
    );
    expect(descriptionOf(within(dialog).getByLabelText('Achternaam'))).toBe(
      'Vul de naam in van de aan te maken gebruiker.',
    );
  });

  it('shows a spinner while the users load, with the new-user button disabled', async () => {
    standardNetwork();
    holdBack((url) => url.pathname === '/api/users');
    const { container } = renderAt('/', routes);
    const status = await screen.findByText('Gebruikers laden…');
    expect(status).toHaveAttribute('role', 'status');
    expect(status.querySelector('.dvp-spinner')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' })).toBeDisabled();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the spec texts when the list cannot be loaded, and keeps the new-user button disabled', async () => {
    standardNetwork((url, init) =>
      url.pathname === '/api/users' && (!init?.method || init.method === 'GET')
        ? { status: 500, body: { error: { code: 500 } } }
        : undefined,
    );
    const { container } = renderAt('/', routes);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Er is iets misgegaan.');
    expect(alert).toHaveTextContent('Kan geen gebruikers ophalen, probeer het later nog eens.');
    expect(alert).toHaveTextContent('Blijft dit gebeuren? Mail dan naar hulp@example.nl.');
    expect(screen.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' })).toBeDisabled();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says the user cannot be found when a 2FA reset meets a deleted account', async () => {
    standardNetwork((url, init) =>
      url.pathname === '/api/users/me/totp' && init?.method === 'DELETE'
        ? { status: 404, body: { error: { code: 404 } } }
        : undefined,
    );
    renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Reset 2FA: Bea Test' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: '2FA Resetten' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resetten' }));
    expect(await screen.findByText('Kan gebruiker niet vinden.')).toBeInTheDocument();
  });

  it('edits names, then sets the data roles in one call, so that a failure cannot leave them half done', async () => {
    const calls = standardNetwork((_url, init) => {
      if (init?.method === 'PUT' || init?.method === 'DELETE') return { status: 200, body: {} };
      return undefined;
    });
    const { container } = renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Bewerken: anna Test' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Gebruiker bewerken' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Ruimte en wonen')).toBeChecked();
    await userEvent.clear(within(dialog).getByLabelText('Voornaam'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(summaryItems()).toEqual(['De gebruiker moet een naam hebben.']));
    expect(descriptionOf(within(dialog).getByLabelText('Voornaam'))).toBe('De gebruiker moet een naam hebben.');
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Anna');
    await userEvent.click(within(dialog).getByLabelText('Ruimte en wonen'));
    await userEvent.click(within(dialog).getByLabelText('Financiën'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByText('Gebruiker aangepast')).toBeInTheDocument();
    const writes = calls
      .filter((call) => call.init?.method === 'PUT' || call.init?.method === 'DELETE')
      .map((call) => `${call.init?.method} ${call.url.pathname}${call.url.search}`);
    expect(writes).toEqual(['PUT /api/users/u2', 'PUT /api/users/u2/permissions']);
    const granted = calls.find((call) => call.url.pathname === '/api/users/u2/permissions');
    expect(JSON.parse(String(granted?.init?.body))).toEqual([
      { namespace: 'subdivisions', object: 'financien_voorbeeldstad', relation: 'issuer' },
    ]);
  });

  it('unblocks and deletes after their confirmations, with the spec texts', async () => {
    standardNetwork((_url, init) =>
      init?.method === 'PUT' || init?.method === 'DELETE' ? { status: 200, body: {} } : undefined,
    );
    const { container } = renderAt('/', routes);
    const rows = (await screen.findAllByRole('row')).slice(1);
    await userEvent.click(within(rows[2]!).getByRole('button', { name: 'Deblokkeer: Karel Test' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Gebruiker deblokkeren' })).toBeInTheDocument();
    expect(within(dialog).getByText('Weet je zeker dat je de gebruiker wil deblokkeren?')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deblokkeren' }));
    expect(await screen.findByText('Gebruiker gedeblokkeerd.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Verwijderen: anna Test' }));
    dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('heading', { name: 'Gebruiker verwijderen' })).toBeInTheDocument();
    expect(within(dialog).getByText('Weet je zeker dat je de gebruiker wil verwijderen?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annuleren' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Verwijderen: anna Test' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Verwijderen' }));
    expect(await screen.findByText('Gebruiker verwijderd.')).toBeInTheDocument();
  });

  it('shows the kinds of factor of each person, and offers Reset 2FA for a security key too', async () => {
    const keyed = [
      user('me', 'Bea', 'bea@voorbeeldstad.nl', {
        userType: { id: 'administrator', label: 'Beheerder' },
        credentials: ['password', 'totp'],
        factors: ['app'],
        home: true,
      }),
      user('u3', 'Sanne', 'sanne@voorbeeldstad.nl', {
        credentials: ['lookup_secret', 'passkey', 'password', 'webauthn'],
        factors: ['backup_codes', 'security_key', 'passkey'],
        home: true,
      }),
      user('u4', 'Piet', 'piet@voorbeeldstad.nl', { credentials: ['passkey', 'password'], factors: ['passkey'] }),
      user('u5', 'Geen', 'geen@voorbeeldstad.nl', { factors: [] }),
    ];
    standardNetwork((url, init) => usersApiAnswer(keyed as unknown as PortalUser[], url, init));
    const { container } = renderAt('/', routes);
    await screen.findByText('Sanne Test');
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    // The whole note, whose kinds of factor are each kept on one line.
    const note = (text: string) => (_: string, element: Element | null) =>
      element?.className === 'dvp-row-note' && element.textContent === text;
    expect(
      within(row('Sanne Test')).getByText(note('Tweede factor: back-upcodes, beveiligingssleutel, passkey')),
    ).toBeVisible();
    expect(within(row('Bea Test')).getByText(note('Tweede factor: authenticator-app'))).toBeVisible();
    expect(within(row('Geen Test')).getByText('Geen tweede factor')).toBeVisible();
    expect(within(row('Sanne Test')).getByRole('button', { name: 'Reset 2FA: Sanne Test' })).toBeInTheDocument();
    // A passkey is a way to sign in, which 'Reset 2FA' does not remove: nothing to reset.
    expect(within(row('Piet Test')).queryByRole('button', { name: /^Reset 2FA/ })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says when each member last signed in, or that they never did; nothing for an invitation', async () => {
    const at = '2026-11-20T08:05:00.000Z';
    const people = [
      user('me', 'Bea', 'bea@voorbeeldstad.nl', {
        userType: { id: 'administrator', label: 'Beheerder' },
        credentials: ['password', 'totp'],
        lastSignInAt: at,
      }),
      user('u6', 'Nooit', 'nooit@voorbeeldstad.nl', { lastSignInAt: null }),
      user('u7', 'Ina', 'ina@dijkstad.nl', { home: false, invitation: { id: 'inv-1', expiresAt: at } }),
    ];
    standardNetwork((url, init) => usersApiAnswer(people as unknown as PortalUser[], url, init));
    renderAt('/', routes);
    await screen.findByText('Nooit Test');
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    // Dutch time (CET), whatever the zone the tests run in.
    const expected = '20 november 2026 om 09:05';
    const note = (text: string) => (_: string, element: Element | null) =>
      element?.className === 'dvp-row-note' && element.textContent === text;
    expect(within(row('Bea Test')).getByText(note(`Laatst ingelogd: ${expected}`))).toBeVisible();
    expect(within(row('Nooit Test')).getByText('Nog nooit ingelogd')).toBeVisible();
    expect(row('Ina Test')).not.toHaveTextContent(/ingelogd/);
    // 'Laatst ingelogd' in 'Sorteer op' asks the server for that order.
    await userEvent.selectOptions(screen.getByLabelText('Sorteer op'), 'Laatst ingelogd');
    await waitFor(() =>
      expect(rowEmails()).toEqual(['bea@voorbeeldstad.nl', 'ina@dijkstad.nl', 'nooit@voorbeeldstad.nl']),
    );
  });

  it('lets in an administrator who signed in with a passkey, where the provider says aal1', async () => {
    const withPasskey = { ...me().identity, credentials: ['password', 'passkey'] };
    standardNetwork(
      undefined,
      me({
        authenticator_assurance_level: 'aal1',
        authentication_methods: ['passkey'],
        secondFactorMet: true,
        identity: withPasskey,
      }),
    );
    renderAt('/', routes);
    expect(await screen.findByText('anna Test')).toBeInTheDocument();
    vi.unstubAllGlobals();
    // Signed in with the password only: confirm the session with the passkey (it is no second step in Kratos).
    standardNetwork(
      undefined,
      me({
        authenticator_assurance_level: 'aal1',
        authentication_methods: ['password'],
        secondFactorMet: false,
        identity: withPasskey,
      }),
    );
    renderAt(
      '/',
      <>
        <Route path="/" element={<OverviewScreen />} />
        <Route path="/login" element={<Address />} />
      </>,
    );
    const back = encodeURIComponent(`${window.location.origin}/`);
    expect(await screen.findByText(`Adres: /login?refresh=true&passkey=1&return_to=${back}`)).toBeInTheDocument();
  });
});
