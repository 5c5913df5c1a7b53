import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Address,
  captureDownloads,
  fakeNetwork,
  holdBack,
  posted,
  renderAt,
  stepsOf,
  unreachable,
} from '../test-support';
import { axeViolations } from '../test-axe';
import { creationOptions, fakeAuthenticator, webauthnNode } from '../test-webauthn';
import TwoFactorScreen from './TwoFactorScreen';

type Answer = { status: number; body?: unknown };
type Label = { id: number; text: string; context?: unknown };

const SECRET = 'JBSWY3DPEHPK3PXP';
const QR =
  'data:image/png;base64,' +
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const CODES = [
  'k3m9x2ab',
  'p0q7w4ze',
  'r5t8y1uc',
  'a2s6d9fg',
  'h4j7k0lm',
  'n1b5v8cx',
  'z3x6c9vb',
  'q2w5e8rt',
  'y1u4i7op',
  'l0k3j6hg',
  'f9d2s5ap',
  'm8n1b4vc',
];

// Settings-flow nodes as the provider sends them (docs/kratos-compatibility.md; packages/idp flows/settings/nodes.ts).
const input = (
  group: string,
  name: string,
  type: string,
  label?: Label,
  value?: unknown,
  messages: unknown[] = [],
) => ({
  type: 'input',
  group,
  attributes: { name, type, ...(value === undefined ? {} : { value }), disabled: false, node_type: 'input' },
  messages,
  meta: label ? { label: { ...label, type: 'info' } } : {},
});
const csrf = input('default', 'csrf_token', 'hidden', undefined, 'csrf-2fa');
const profileAndPassword = [
  input(
    'profile',
    'traits.email',
    'email',
    { id: 1070002, text: 'E-Mail', context: { title: 'E-Mail', name: 'traits.email' } },
    'anna@voorbeeldstad.nl',
  ),
  input('profile', 'method', 'submit', { id: 1070003, text: 'Save' }, 'profile'),
  input('password', 'password', 'password', { id: 1070001, text: 'Password' }),
  input('password', 'method', 'submit', { id: 1070003, text: 'Save' }, 'password'),
];
const totpEnrolment = (codeMessages: unknown[] = []) => [
  {
    type: 'img',
    group: 'totp',
    attributes: { src: QR, id: 'totp_qr', width: 256, height: 256, node_type: 'img' },
    messages: [],
    meta: { label: { id: 1050005, text: 'Authenticator app QR code', type: 'info' } },
  },
  {
    type: 'text',
    group: 'totp',
    attributes: {
      text: { id: 1050006, text: SECRET, type: 'info', context: { secret: SECRET } },
      id: 'totp_secret_key',
      node_type: 'text',
    },
    messages: [],
    meta: {
      label: {
        id: 1050017,
        text: 'This is your authenticator app secret. Use it if you can not scan the QR code.',
        type: 'info',
      },
    },
  },
  input('totp', 'totp_code', 'text', { id: 1070006, text: 'Verify code' }, undefined, codeMessages),
  input('totp', 'method', 'submit', { id: 1070003, text: 'Save' }, 'totp'),
];
const totpUnlink = input(
  'totp',
  'totp_unlink',
  'submit',
  { id: 1050004, text: 'Unlink TOTP Authenticator App' },
  'true',
);
const lookupButton = (name: string, label: Label) => input('lookup_secret', name, 'submit', label, 'true');
const regenerate = lookupButton('lookup_secret_regenerate', {
  id: 1050008,
  text: 'Generate new backup recovery codes',
});
const codesNode = (used: number[] = []) => ({
  type: 'text',
  group: 'lookup_secret',
  attributes: {
    id: 'lookup_secret_codes',
    node_type: 'text',
    text: {
      id: 1050015,
      text: CODES.map((code, i) => (used.includes(i) ? 'used' : code)).join(', '),
      type: 'info',
      context: {
        secrets: CODES.map((code, i) =>
          used.includes(i)
            ? {
                id: 1050014,
                text: 'Secret was used at 2026-03-01 12:00:00 +0000 UTC',
                type: 'info',
                context: { used_at: '2026-03-01T12:00:00Z', used_at_unix: 1772366400 },
              }
            : { id: 1050009, text: code, type: 'info', context: { secret: code } },
        ),
      },
    },
  },
  messages: [],
  meta: {
    label: {
      id: 1050010,
      text: 'These are your back up recovery codes. Please keep them in a safe place!',
      type: 'info',
    },
  },
});

const flow = (id: string, nodes: unknown[]) => ({
  id,
  type: 'browser',
  state: 'show_form',
  ui: {
    action: `${window.location.origin}/self-service/settings?flow=${id}`,
    method: 'POST',
    nodes: [csrf, ...profileAndPassword, ...nodes],
  },
});
const unlinked = (id = 'f1', codeMessages: unknown[] = []) => flow(id, [regenerate, ...totpEnrolment(codeMessages)]);
const linked = (id = 'f1', lookup: unknown[] = [regenerate]) => flow(id, [...lookup, totpUnlink]);

const whoami = (isAdmin = false) => ({
  active: true,
  identity: {
    id: 'anna',
    traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'de Vries' } },
    credentials: ['password'],
  },
  permissions: [],
  activeOrg: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad', subdivisions: [] },
  isAdmin,
  authenticator_assurance_level: 'aal1',
  aal2Required: true,
});

function network(
  options: {
    create?: Answer;
    get?: (id: string) => Answer;
    update?: (body: Record<string, unknown>, flowId: string) => Answer;
    isAdmin?: boolean;
    otherSessions?: unknown[];
    /** A person who links an app from the settings, not one the portal sends here before anything else. */
    fromSettings?: boolean;
    /** A person none of whose organisations requires a second factor. */
    optional?: boolean;
  } = {},
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/sessions') return { status: 200, body: options.otherSessions ?? [] };
    if (url.pathname === '/self-service/settings/browser') return options.create ?? { status: 200, body: unlinked() };
    if (url.pathname === '/self-service/settings/flows')
      return options.get?.(url.searchParams.get('id') ?? '') ?? { status: 404, body: { error: { code: 404 } } };
    if (url.pathname === '/self-service/settings' && init?.method === 'POST') {
      return (
        options.update?.(JSON.parse(String(init.body)), url.searchParams.get('flow') ?? '') ?? {
          status: 200,
          body: { ...linked(), state: 'success' },
        }
      );
    }
    if (url.pathname === '/api/users/whoami')
      return {
        status: 200,
        body: {
          ...whoami(options.isAdmin),
          ...(options.fromSettings ? { authenticator_assurance_level: 'aal2' } : {}),
          ...(options.optional ? { aal2Required: false } : {}),
        },
      };
    if (url.pathname === '/api/config') return { status: 200, body: { sessionIdleSeconds: 1800 } };
    return undefined;
  });
}

const routes = (
  <>
    <Route
      path="/settings/2fa-app"
      element={
        <>
          <TwoFactorScreen />
          <Address />
        </>
      }
    />
    <Route path="/login" element={<Address />} />
    <Route path="/permissies" element={<Address />} />
  </>
);

/** 4000008 in Dutch: what is wrong with which field, and what to do. */
const WRONG_CODE =
  'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.';

const codeSection = () => screen.getByRole('region', { name: 'Stap 2: bewaar je back-upcodes' });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TwoFactorScreen', () => {
  it('shows Laden… under the heading while the settings flow is made', async () => {
    network();
    holdBack((url) => url.pathname === '/self-service/settings/browser');
    const { container } = renderAt('/settings/2fa-app', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Authenticator-app instellen' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Laden…');
    expect(document.title).toBe('Authenticator-app instellen – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the QR code, manual key and code field of the totp group only; the flow id in the address', async () => {
    const calls = network();
    const { container } = renderAt('/settings/2fa-app', routes);
    const step = await screen.findByRole('region', { name: 'Stap 1: koppel je authenticator-app' });
    expect(within(step).getByText(/^Open een authenticator-app op je telefoon of tablet/)).toHaveTextContent(
      'Open een authenticator-app op je telefoon of tablet, bijvoorbeeld Microsoft Authenticator of ' +
        'Google Authenticator. Scan de QR-code. Lukt scannen niet? Voer dan de sleutel onder de QR-code ' +
        'met de hand in. Vul daarna de code van 6 cijfers in die de app laat zien.',
    );
    const qr = within(step).getByRole('img', { name: 'QR-code voor je authenticator-app' });
    expect(qr).toHaveAttribute('src', QR);
    expect(qr).toHaveAttribute('width', '256');
    expect(within(step).getByText('Sleutel om handmatig in je authenticator-app in te voeren')).toBeInTheDocument();
    // In groups of four, for eyes and screen readers alike (the key itself is SECRET).
    expect(within(step).getByText('JBSW Y3DP EHPK 3PXP').tagName).toBe('CODE');
    const code = within(step).getByLabelText('Code controleren');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('name', 'totp_code');
    expect(within(step).getByRole('button', { name: 'Opslaan' })).toBeEnabled();
    // Only the totp group: no profile, password or backup-code controls on this screen before the app is linked.
    expect(screen.queryByLabelText('Wachtwoord')).toBeNull();
    expect(screen.queryByLabelText('E-mailadres')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Nieuwe back-upcodes maken' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Stap 2: bewaar je back-upcodes' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Voortgang' })).toBeNull();
    expect(await screen.findByText('Adres: /settings/2fa-app?flow=f1')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.url.pathname.startsWith('/self-service/')).map((call) => call.url.pathname),
    ).toEqual(['/self-service/settings/browser']);
    expect(
      new Headers(calls.find((call) => call.url.pathname === '/self-service/settings/browser')?.init?.headers).get(
        'Accept',
      ),
    ).toBe('application/json');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('confirms the code (method totp), then shows the linked app, backup-code step, way to /permissies', async () => {
    const calls = network();
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    expect(calls.some((call) => call.url.pathname === '/sessions')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    const done = await screen.findByRole('region', { name: 'Je authenticator-app is gekoppeld' });
    expect(
      within(done).getByText('Bij het inloggen vraagt het portaal voortaan om de code uit je app.'),
    ).toBeInTheDocument();
    expect(within(done).getByRole('button', { name: 'Authenticator-app ontkoppelen' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'QR-code voor je authenticator-app' })).toBeNull();
    expect(
      within(codeSection()).getByText(
        'Met een back-upcode log je in als je je telefoon niet bij de hand hebt. Elke code werkt één ' +
          'keer. Bewaar ze op een veilige plek, niet op je telefoon.',
      ),
    ).toBeInTheDocument();
    expect(within(codeSection()).getByRole('button', { name: 'Nieuwe back-upcodes maken' })).toBeInTheDocument();
    expect(within(codeSection()).getByRole('link', { name: 'Verder naar het portaal' })).toHaveAttribute(
      'href',
      '/permissies',
    );
    const [sent] = posted(calls);
    expect(calls.find((call) => call.init?.method === 'POST')?.url.pathname).toBe('/self-service/settings');
    expect(sent?.flow).toBe('f1');
    expect(sent?.body).toMatchObject({ csrf_token: 'csrf-2fa', method: 'totp', totp_code: '492039' });
    expect(sent?.body).not.toHaveProperty('totp_unlink');
    expect(sent?.body).not.toHaveProperty('password');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says the details were changed once, at the top, not under the backup-code step before codes exist', async () => {
    network({
      update: () => ({
        status: 200,
        body: {
          ...linked(),
          state: 'success',
          ui: { ...linked().ui, messages: [{ id: 1050001, text: 'Your changes have been saved!', type: 'success' }] },
        },
      }),
    });
    renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    await screen.findByRole('region', { name: 'Je authenticator-app is gekoppeld' });
    expect(screen.getAllByText('Je gegevens zijn aangepast.')).toHaveLength(1);
    expect(within(codeSection()).queryByText('Je gegevens zijn aangepast.')).toBeNull();
    expect(screen.getByText('Je gegevens zijn aangepast.').compareDocumentPosition(codeSection())).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('offers a way out: signing out while an app must be linked first, else back to the settings', async () => {
    network();
    const { unmount, container } = renderAt('/settings/2fa-app', routes);
    await screen.findByLabelText('Code controleren');
    const wayOut = screen.getByRole('navigation', { name: 'Verlaten' });
    await waitFor(() =>
      expect(within(wayOut).getByRole('link', { name: 'Uitloggen' })).toHaveAttribute('href', '/uitloggen'),
    );
    expect(within(wayOut).queryByRole('link', { name: 'Terug naar account instellingen' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
    unmount();
    vi.unstubAllGlobals();
    network({ fromSettings: true });
    renderAt('/settings/2fa-app', routes);
    await screen.findByLabelText('Code controleren');
    const back = await screen.findByRole('link', { name: 'Terug naar account instellingen' });
    expect(back).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: 'Uitloggen' })).toHaveAttribute('href', '/uitloggen');
  });

  it('leads an administrator on to the dashboard at /', async () => {
    network({ create: { status: 200, body: linked() }, isAdmin: true });
    renderAt('/settings/2fa-app', routes);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Verder naar het portaal' })).toHaveAttribute('href', '/'),
    );
  });

  it('goes on to the data service whose sign-in waits at the portal, and to no other address', async () => {
    network({ create: { status: 200, body: linked() } });
    const { unmount } = renderAt(
      `/settings/2fa-app?verder=${encodeURIComponent('/oidc/interaction/abc_123-X')}`,
      routes,
    );
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Verder naar de datavoorziening' })).toHaveAttribute(
        'href',
        '/oidc/interaction/abc_123-X',
      ),
    );
    unmount();
    renderAt(`/settings/2fa-app?verder=${encodeURIComponent('https://elders.example.nl/oidc/interaction/x')}`, routes);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Verder naar het portaal' })).toHaveAttribute('href', '/permissies'),
    );
  });

  it('shows a wrong code in Dutch under the field, marks it invalid and focuses the error summary', async () => {
    network({
      update: () => ({
        status: 400,
        body: unlinked('f1', [
          { id: 4000008, text: 'The provided authentication code is invalid, please try again.', type: 'error' },
        ]),
      }),
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('Controleer de volgende velden:');
    expect(summary).toHaveTextContent(WRONG_CODE);
    await waitFor(() => expect(summary).toHaveFocus());
    const code = screen.getByLabelText('Code controleren');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    const describedBy = document.getElementById(code.getAttribute('aria-describedby') ?? '');
    expect(describedBy).toHaveTextContent(WRONG_CODE);
    expect(screen.queryByRole('region', { name: 'Je authenticator-app is gekoppeld' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('makes new backup codes, shows them in a grid with copy, download and print, and confirms them', async () => {
    const calls = network({
      create: { status: 200, body: linked() },
      update: (body) =>
        body.lookup_secret_regenerate
          ? {
              status: 200,
              body: linked('f1', [
                codesNode(),
                lookupButton('lookup_secret_confirm', { id: 1050011, text: 'Confirm backup recovery codes' }),
              ]),
            }
          : {
              status: 200,
              body: {
                ...linked('f1', [
                  lookupButton('lookup_secret_reveal', { id: 1050007, text: 'Reveal backup recovery codes' }),
                  lookupButton('lookup_secret_disable', { id: 1050016, text: 'Disable this method' }),
                ]),
                state: 'success',
              },
            },
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe back-upcodes maken' }));
    const grid = await screen.findByRole('list', { name: 'Back-upcodes' });
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(
      within(codeSection()).getByText('Dit zijn je back-upcodes. Bewaar ze op een veilige plek!'),
    ).toBeInTheDocument();
    for (const name of ['Kopiëren', 'Downloaden', 'Afdrukken'])
      expect(within(codeSection()).getByRole('button', { name })).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Back-upcodes bevestigen' }));
    expect(await screen.findByRole('button', { name: 'Back-upcodes tonen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back-upcodes uitschakelen' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Back-upcodes' })).toBeNull();
    expect(posted(calls).map((call) => call.body)).toEqual([
      expect.objectContaining({ csrf_token: 'csrf-2fa', method: 'lookup_secret', lookup_secret_regenerate: 'true' }),
      expect.objectContaining({ csrf_token: 'csrf-2fa', method: 'lookup_secret', lookup_secret_confirm: 'true' }),
    ]);
    expect(posted(calls)[1]!.body).not.toHaveProperty('lookup_secret_regenerate');
  });

  it('asks before going on with new codes not yet confirmed, which then do not count', async () => {
    const calls = network({
      create: { status: 200, body: linked() },
      update: () => ({
        status: 200,
        body: linked('f1', [
          codesNode(),
          lookupButton('lookup_secret_confirm', { id: 1050011, text: 'Confirm backup recovery codes' }),
        ]),
      }),
    });
    renderAt('/settings/2fa-app', routes);
    // Before there are new codes, going on asks nothing.
    expect(await screen.findByRole('link', { name: 'Verder naar het portaal' })).toBeInTheDocument();
    expect(screen.queryByText(/pas dan werken ze/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Nieuwe back-upcodes maken' }));
    await screen.findByRole('list', { name: 'Back-upcodes' });
    expect(
      within(codeSection()).getByText('Bewaar ze en kies daarna ‘Back-upcodes bevestigen’: pas dan werken ze.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Verder naar het portaal' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Back-upcodes niet bevestigd' });
    expect(dialog).toHaveAccessibleDescription(
      'Je hebt deze back-upcodes nog niet bevestigd. Ze werken pas als je ‘Back-upcodes bevestigen’ kiest. Ga je nu ' +
        'verder, dan vervallen ze.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annuleren' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText(/^Adres: \/settings\/2fa-app/)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Back-upcodes' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Verder naar het portaal' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Verder zonder deze codes' }));
    expect(await screen.findByText('Adres: /permissies')).toBeInTheDocument();
    expect(posted(calls).map((call) => Object.keys(call.body))).not.toContainEqual(
      expect.arrayContaining(['lookup_secret_confirm']),
    );
  });

  it("shows used codes as 'Used' and copies only the codes that still work", async () => {
    const user = userEvent.setup();
    network({
      create: {
        status: 200,
        body: linked('f1', [
          codesNode([1, 4]),
          regenerate,
          lookupButton('lookup_secret_disable', { id: 1050016, text: 'Disable this method' }),
        ]),
      },
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    const grid = await screen.findByRole('list', { name: 'Back-upcodes' });
    const items = within(grid).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(CODES.map((code, i) => (i === 1 || i === 4 ? 'Used' : code)));
    expect(items[1]).toHaveClass('dvp-backup-code--used');
    expect(items[0]).not.toHaveClass('dvp-backup-code--used');
    await user.click(screen.getByRole('button', { name: 'Kopiëren' }));
    expect(await screen.findByText('De codes staan op je klembord.')).toHaveAttribute('role', 'status');
    const usable = CODES.filter((_, i) => i !== 1 && i !== 4);
    expect(await navigator.clipboard.readText()).toBe(
      `Back-upcodes Datavoorzieningen Portaal\n\n${usable.join('\n')}\n\nElke code werkt één keer.\n`,
    );
    expect(await axeViolations(container)).toEqual([]);
  });

  it('downloads the codes as a text file and opens the print dialog', async () => {
    network({ create: { status: 200, body: linked('f1', [codesNode([0]), regenerate]) } });
    const downloads = captureDownloads();
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    try {
      renderAt('/settings/2fa-app', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Downloaden' }));
      expect(downloads.files.map((file) => file.name)).toEqual(['back-upcodes-datavoorzieningen.txt']);
      const [file] = downloads.files;
      expect(file!.blob.type).toBe('text/plain;charset=utf-8');
      expect(await file!.blob.text()).toBe(
        `Back-upcodes Datavoorzieningen Portaal\n\n${CODES.slice(1).join('\n')}\n\nElke code werkt één keer.\n`,
      );
      expect(URL.revokeObjectURL).toHaveBeenCalledWith(file!.href);
      await userEvent.click(screen.getByRole('button', { name: 'Afdrukken' }));
      expect(print).toHaveBeenCalledTimes(1);
    } finally {
      downloads.restore();
    }
  });

  it('asks before unlinking the app or switching the backup codes off, and sends nothing when cancelled', async () => {
    const calls = network({
      create: {
        status: 200,
        body: linked('f1', [regenerate, lookupButton('lookup_secret_disable', { id: 1050016, text: 'Disable' })]),
      },
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Authenticator-app ontkoppelen' }));
    const unlink = screen.getByRole('alertdialog', { name: 'Authenticator-app ontkoppelen' });
    expect(unlink).toHaveTextContent('Dit kun je niet ongedaan maken');
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(unlink).getByRole('button', { name: 'Annuleren' }));
    await userEvent.click(screen.getByRole('button', { name: 'Back-upcodes uitschakelen' }));
    const disable = screen.getByRole('alertdialog', { name: 'Back-upcodes uitschakelen' });
    expect(disable).toHaveTextContent('De codes die je hebt bewaard, werken dan niet meer.');
    await userEvent.click(within(disable).getByRole('button', { name: 'Annuleren' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posted(calls)).toEqual([]);
  });

  it('unlinks the app with totp_unlink, shows the QR step again and offers to end the sessions elsewhere', async () => {
    const elsewhere = { id: 's-2', devices: [{ id: 's-2', ip_address: '192.0.2.10', user_agent: '' }] };
    const calls = network({
      create: { status: 200, body: linked() },
      update: () => ({ status: 200, body: { ...unlinked(), state: 'success' } }),
      otherSessions: [elsewhere, { ...elsewhere, id: 's-3' }],
    });
    renderAt('/settings/2fa-app', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Authenticator-app ontkoppelen' }));
    const question = screen.getByRole('alertdialog', { name: 'Authenticator-app ontkoppelen' });
    expect(posted(calls), 'nothing before the confirmation').toEqual([]);
    await userEvent.click(within(question).getByRole('button', { name: 'Ontkoppelen' }));
    expect(await screen.findByRole('img', { name: 'QR-code voor je authenticator-app' })).toBeInTheDocument();
    expect(await screen.findByText(/Je bent nog ingelogd op 2 andere apparaten\./)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Stap 2: bewaar je back-upcodes' })).toBeNull();
    expect(posted(calls).map((call) => call.body)).toEqual([
      expect.objectContaining({ csrf_token: 'csrf-2fa', method: 'totp', totp_unlink: 'true' }),
    ]);
  });

  it('shows steps 3 and 4 of recovery after the mailed link, and keeps herstel=1 in the address', async () => {
    network();
    const { container } = renderAt('/settings/2fa-app?herstel=1', routes);
    await screen.findByLabelText('Code controleren');
    expect(stepsOf()).toEqual([
      '✓Account verifiëren (klaar)',
      '✓Wachtwoord instellen (klaar)',
      '32FA configureren [nu]',
      '4Klaar!',
    ]);
    expect(await screen.findByText('Adres: /settings/2fa-app?flow=f1&herstel=1')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.type(screen.getByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    await screen.findByRole('region', { name: 'Je authenticator-app is gekoppeld' });
    expect(stepsOf()).toEqual([
      '✓Account verifiëren (klaar)',
      '✓Wachtwoord instellen (klaar)',
      '✓2FA configureren (klaar)',
      '4Klaar! [nu]',
    ]);
  });

  it('lets a person whose second factor is optional end the recovery steps without an app', async () => {
    const LATER = 'Later instellen en verder naar het portaal';
    network({ optional: true });
    const { unmount } = renderAt('/settings/2fa-app?herstel=1', routes);
    const later = await screen.findByRole('link', { name: LATER });
    expect(later).toHaveAttribute('href', '/permissies');
    expect(later.closest('p')).toHaveTextContent(
      'Voor jouw account is 2FA niet verplicht, maar wel veiliger. Je kunt het ook later instellen bij Account ' +
        'instellingen.',
    );
    await userEvent.click(later);
    expect(await screen.findByText('Adres: /permissies')).toBeInTheDocument();
    unmount();
    // Not where the app is required, nor outside the recovery steps (the settings are one link away there).
    vi.unstubAllGlobals();
    network();
    const required = renderAt('/settings/2fa-app?herstel=1', routes);
    await screen.findByLabelText('Code controleren');
    expect(screen.queryByRole('link', { name: LATER })).toBeNull();
    required.unmount();
    vi.unstubAllGlobals();
    network({ optional: true });
    renderAt('/settings/2fa-app', routes);
    await screen.findByLabelText('Code controleren');
    await screen.findByRole('link', { name: 'Terug naar account instellingen' });
    expect(screen.queryByRole('link', { name: LATER })).toBeNull();
  });

  it('warns before the idle timeout here too, outside the sidebar layout', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      network();
      renderAt('/settings/2fa-app', routes);
      await screen.findByLabelText('Code controleren');
      await act(() => vi.advanceTimersByTimeAsync(27 * 60_000 + 10_000));
      expect(screen.getByRole('alertdialog', { name: 'Je wordt bijna uitgelogd' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('fetches the flow named in the address instead of making a new one', async () => {
    const calls = network({ get: (id) => (id === 'f7' ? { status: 200, body: linked('f7') } : { status: 404 }) });
    renderAt('/settings/2fa-app?flow=f7', routes);
    expect(await screen.findByRole('region', { name: 'Je authenticator-app is gekoppeld' })).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.url.pathname.startsWith('/self-service/'))
        .map((call) => `${call.url.pathname}${call.url.search}`),
    ).toEqual(['/self-service/settings/flows?id=f7']);
  });

  it('sends a person without a session to /login', async () => {
    network({
      create: {
        status: 401,
        body: {
          error: {
            id: 'session_inactive',
            code: 401,
            status: 'Unauthorized',
            reason: 'No active session was found in this request.',
          },
        },
      },
    });
    renderAt('/settings/2fa-app', routes);
    expect(await screen.findByText('Adres: /login')).toBeInTheDocument();
  });

  it('sends a session that needs its second factor first to the code step, with the way back', async () => {
    network({
      create: {
        status: 403,
        body: {
          error: { id: 'session_aal2_required', code: 403, status: 'Forbidden' },
          redirect_browser_to: `${window.location.origin}/self-service/login/browser?aal=aal2`,
        },
      },
    });
    renderAt('/settings/2fa-app', routes);
    const address = await screen.findByText(/^Adres: \/login\?/);
    const query = new URLSearchParams(address.textContent!.replace(/^Adres: \/login\?/, ''));
    expect(query.get('aal')).toBe('aal2');
    expect(query.get('return_to')).toBe(window.location.href);
  });

  it('sends a session too old to change the second factor to sign in again (session_refresh_required)', async () => {
    network({
      update: () => ({
        status: 403,
        body: {
          error: { id: 'session_refresh_required', code: 403, status: 'Forbidden' },
          redirect_browser_to:
            `${window.location.origin}/self-service/login/browser?refresh=true&return_to=` +
            encodeURIComponent(`${window.location.origin}/self-service/settings?flow=f1`),
        },
      }),
    });
    renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    // Back to this screen afterwards (the provider's settings endpoint is no screen of the portal).
    expect(
      await screen.findByText(`Adres: /login?refresh=true&return_to=${encodeURIComponent(window.location.href)}`),
    ).toBeInTheDocument();
  });

  it('continues with the new flow and its message when the provider says it expired (410, use_flow_id)', async () => {
    const calls = network({
      get: (id) => {
        if (id !== 'f2') return { status: 404 };
        const replacement = unlinked('f2');
        return {
          status: 200,
          body: {
            ...replacement,
            ui: {
              ...replacement.ui,
              messages: [
                { id: 4050001, text: 'The settings flow expired 61.00 minutes ago, please try again.', type: 'error' },
              ],
            },
          },
        };
      },
      update: () => ({
        status: 410,
        body: { error: { id: 'self_service_flow_expired', code: 410, status: 'Gone' }, use_flow_id: 'f2' },
      }),
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByText('Adres: /settings/2fa-app?flow=f2')).toBeInTheDocument();
    expect(await screen.findByText('Het wijzigen duurde te lang. Probeer het opnieuw.')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.url.pathname === '/self-service/settings/flows')
        .map((call) => call.url.searchParams.get('id')),
    ).toEqual(['f2']);
    await waitFor(() => expect(screen.getByLabelText('Code controleren')).toHaveValue(''));
    expect(await axeViolations(container)).toEqual([]);
  });

  it('starts over with a Dutch notice after a CSRF refusal', async () => {
    let made = 0;
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/settings/browser') return { status: 200, body: unlinked(`f${++made}`) };
      if (url.pathname === '/self-service/settings' && init?.method === 'POST')
        return { status: 403, body: { error: { id: 'security_csrf_violation', code: 403, status: 'Forbidden' } } };
      if (url.pathname === '/api/users/whoami') return { status: 200, body: whoami() };
      return undefined;
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    expect(
      await screen.findByText(
        'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander ' +
          'venster geopend. Vul het opnieuw in.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Adres: /settings/2fa-app?flow=f2')).toBeInTheDocument();
    expect(calls.filter((call) => call.url.pathname === '/self-service/settings/browser')).toHaveLength(2);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says the settings could not be fetched if the server is unreachable or fails, not Laden… forever', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    network();
    unreachable((url) => url.pathname === '/self-service/settings/browser');
    const { container } = renderAt('/settings/2fa-app', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het ophalen van je instellingen. Probeer het later nog eens.',
    );
    expect(screen.queryByText('Laden…')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
    vi.unstubAllGlobals();
    network({
      create: {
        status: 500,
        body: {
          error: {
            code: 500,
            status: 'Internal Server Error',
            message: 'An internal server error occurred, please contact the system administrator',
          },
        },
      },
    });
    const second = renderAt('/settings/2fa-app', routes);
    expect(await within(second.container).findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het ophalen van je instellingen. Probeer het later nog eens.',
    );
  });

  it('says the code could not be saved when the server cannot be reached, and keeps the step', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    network();
    unreachable((url) => url.pathname === '/self-service/settings');
    const { container } = renderAt('/settings/2fa-app', routes);
    await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het opslaan. Probeer het nog eens.',
    );
    expect(screen.getByLabelText('Code controleren')).toHaveValue('492039');
    expect(screen.getByRole('button', { name: 'Opslaan' })).toBeEnabled();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(await axeViolations(container)).toEqual([]);
  });

  describe('focus, titles and the key (WCAG 2.4.2, 2.4.3, 1.3.2)', () => {
    const titleOf = (stage: string) => `Authenticator-app instellen – ${stage} – Datavoorzieningen Portaal`;

    it("names the stage in the page title and focuses the linked app's heading after linking", async () => {
      network();
      const { container } = renderAt('/settings/2fa-app', routes);
      await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
      expect(document.title).toBe(titleOf('app koppelen'));
      await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
      const heading = await screen.findByRole('heading', { name: 'Je authenticator-app is gekoppeld' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(document.title).toBe(titleOf('app gekoppeld'));
      expect(await axeViolations(container)).toEqual([]);
    });

    it('focuses the heading of new backup codes, shown before copy/download/print, then the next step', async () => {
      network({
        create: { status: 200, body: linked() },
        update: (body) =>
          body.lookup_secret_regenerate
            ? {
                status: 200,
                body: linked('f1', [
                  codesNode(),
                  lookupButton('lookup_secret_confirm', { id: 1050011, text: 'Confirm backup recovery codes' }),
                ]),
              }
            : {
                status: 200,
                body: {
                  ...linked('f1', [lookupButton('lookup_secret_reveal', { id: 1050007, text: 'Reveal' })]),
                  state: 'success',
                },
              },
      });
      const { container } = renderAt('/settings/2fa-app', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe back-upcodes maken' }));
      const heading = await screen.findByRole('heading', { level: 3, name: 'Je back-upcodes' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(document.title).toBe(titleOf('back-upcodes bewaren'));
      // Reading order: the heading, the codes, then what to do with them, then confirming.
      const grid = screen.getByRole('list', { name: 'Back-upcodes' });
      const copy = screen.getByRole('button', { name: 'Kopiëren' });
      const confirm = screen.getByRole('button', { name: 'Back-upcodes bevestigen' });
      expect(heading.compareDocumentPosition(grid)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
      expect(grid.compareDocumentPosition(copy)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
      expect(copy.compareDocumentPosition(confirm)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
      expect(within(codeSection()).getAllByRole('list', { name: 'Back-upcodes' })).toHaveLength(1);
      expect(await axeViolations(container)).toEqual([]);
      await userEvent.click(confirm);
      const step = await screen.findByRole('heading', { level: 2, name: 'Stap 2: bewaar je back-upcodes' });
      await waitFor(() => expect(step).toHaveFocus());
      expect(screen.queryByRole('list', { name: 'Back-upcodes' })).toBeNull();
      expect(document.title).toBe(titleOf('app gekoppeld'));
    });

    it('moves the focus to the first step after unlinking the app', async () => {
      network({
        create: { status: 200, body: linked() },
        update: () => ({ status: 200, body: { ...unlinked(), state: 'success' } }),
      });
      renderAt('/settings/2fa-app', routes);
      await userEvent.click(await screen.findByRole('button', { name: 'Authenticator-app ontkoppelen' }));
      const question = screen.getByRole('alertdialog', { name: 'Authenticator-app ontkoppelen' });
      await userEvent.click(within(question).getByRole('button', { name: 'Ontkoppelen' }));
      const heading = await screen.findByRole('heading', { name: 'Stap 1: koppel je authenticator-app' });
      await waitFor(() => expect(heading).toHaveFocus());
    });

    it('names the recovery step in the page title after the mailed link', async () => {
      network();
      renderAt('/settings/2fa-app?herstel=1', routes);
      await userEvent.type(await screen.findByLabelText('Code controleren'), '492039');
      expect(document.title).toBe(titleOf('app koppelen (stap 3 van 4)'));
      await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }));
      await screen.findByRole('heading', { name: 'Je authenticator-app is gekoppeld' });
      expect(document.title).toBe(titleOf('app gekoppeld (stap 4 van 4)'));
    });

    it('shows a 32-character key in groups of four, and copies it without the spaces', async () => {
      const user = userEvent.setup();
      const long = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
      const withKey = unlinked();
      for (const node of withKey.ui.nodes as { attributes: { id?: string; text?: unknown } }[])
        if (node.attributes.id === 'totp_secret_key')
          node.attributes.text = { id: 1050006, text: long, type: 'info', context: { secret: long } };
      network({ create: { status: 200, body: withKey } });
      const { container } = renderAt('/settings/2fa-app', routes);
      const key = await screen.findByText('ABCD EFGH IJKL MNOP QRST UVWX YZ23 4567');
      expect(key.tagName).toBe('CODE');
      await user.click(screen.getByRole('button', { name: 'Sleutel kopiëren' }));
      expect(await navigator.clipboard.readText()).toBe(long);
      expect(screen.getByText('De sleutel staat op je klembord.')).toHaveAttribute('role', 'status');
      // Selected by hand and copied: the key as the app wants it, not the spaces of the groups.
      window.getSelection()!.selectAllChildren(key);
      const clipboardData = { setData: vi.fn() };
      fireEvent.copy(key, { clipboardData });
      expect(clipboardData.setData).toHaveBeenCalledWith('text/plain', long);
      expect(await axeViolations(container)).toEqual([]);
    });
  });

  it('offers a security key or passkey instead of the app, and then to sign in again with it', async () => {
    fakeAuthenticator();
    const passkeyNodes = [
      webauthnNode(
        'passkey_register_trigger',
        'passkey',
        'button',
        { onclickTrigger: 'oryPasskeySettingsRegistration', value: '' },
        { id: 1050019, text: 'Add passkey' },
      ),
      webauthnNode('passkey_settings_register', 'passkey', 'hidden'),
      webauthnNode('passkey_create_data', 'passkey', 'hidden', { value: creationOptions }),
    ];
    let added = false;
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/sessions') return { status: 200, body: [] };
      if (url.pathname === '/self-service/settings/browser')
        return { status: 200, body: flow('f1', [regenerate, ...totpEnrolment(), ...passkeyNodes]) };
      if (url.pathname === '/self-service/settings' && init?.method === 'POST') {
        added = true;
        return { status: 200, body: flow('f1', [regenerate, ...totpEnrolment(), ...passkeyNodes]) };
      }
      if (url.pathname === '/api/users/whoami') {
        const me = whoami();
        const credentials = added ? ['passkey', 'password'] : ['password'];
        return { status: 200, body: { ...me, identity: { ...me.identity, credentials }, secondFactorMet: false } };
      }
      if (url.pathname === '/api/config') return { status: 200, body: {} };
      return undefined;
    });
    const { container } = renderAt('/settings/2fa-app', routes);
    const keys = await screen.findByRole('region', { name: 'Beveiligingssleutels en passkeys' });
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(keys).getByRole('button', { name: 'Passkey toevoegen' }));
    await within(keys).findByText('Je passkey is toegevoegd. Je kunt er voortaan mee inloggen.');
    expect(posted(calls)[0]?.body).toMatchObject({ method: 'passkey', passkey_settings_register: expect.any(String) });
    // The portal's policy counts the passkey once it is used to sign in.
    const again = await screen.findByRole('link', {
      name: 'Ga verder met je passkey of beveiligingssleutel',
    });
    // Signed in again, the person goes on to where linking an app would have taken them.
    const back = encodeURIComponent(`${window.location.origin}/permissies`);
    expect(again).toHaveAttribute('href', `/login?refresh=true&passkey=1&return_to=${back}`);
  });
});
