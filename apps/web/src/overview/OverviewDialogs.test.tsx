import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { descriptionOf, errorSummary, fakeNetwork, holdBack, renderAt, unreachable } from '../test-support';
import type { PortalUser } from '../api/users-api';
import { usersApiAnswer, whoamiOf } from '../test-users-api';
import OverviewScreen from './OverviewScreen';

// The overview's dialogs as an accessibility auditor checks them (WCAG 2.2 AA): a failure is said in the dialog and
// keeps the focus there, a confirmation names the person, every row button says whom it is for, and the new-user form
// keeps the focus on a field the e-mail check makes read-only. OverviewScreen.test.tsx has the spec's happy paths.

const me = whoamiOf();

const person = (id: string, first: string, last: string, email: string, extra: Record<string, unknown> = {}) => ({
  id,
  schema_id: 'default',
  state: 'active',
  traits: { email, name: { first, last } },
  created_at: '2026-03-01T12:00:00Z',
  credentials: ['password', 'totp'],
  verified: true,
  permissions: [],
  userType: { id: 'analyst', label: 'Medewerker' },
  home: true,
  ...extra,
});

const list = [
  person('me', 'Bea', 'Beheerder', 'bea@voorbeeldstad.nl', { userType: { id: 'administrator', label: 'Beheerder' } }),
  person('u1', 'Jan', 'Jansen', 'jan@voorbeeldstad.nl'),
  person('u2', 'Karel', 'Klok', 'karel@voorbeeldstad.nl', { state: 'inactive', credentials: ['password'] }),
  person('u3', 'Lot', 'Slot', 'lot@voorbeeldstad.nl', {
    credentials: ['password'],
    lockedUntil: '2999-01-01T10:15:00Z',
  }),
  person('g1', 'Gijs', 'Gast', 'gijs@dego.nl', { home: false, credentials: [] }),
  person('i1', 'Ina', 'Invite', 'ina@dijkstad.nl', {
    home: false,
    credentials: [],
    invitation: { id: 'inv-1', expiresAt: '2026-11-26T12:00:00.000Z' },
  }),
];

type Answer = { status: number; body?: unknown } | undefined;

function network(extra?: (url: URL, init?: RequestInit) => Answer, supportEmail: string | null = 'hulp@example.nl') {
  return fakeNetwork((url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me };
    if (url.pathname === '/api/config')
      return { status: 200, body: { title: 'x', description: 'x', supportEmail, feedbackEmail: null } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    return usersApiAnswer(list as unknown as PortalUser[], url, init);
  });
}

const routes = <Route path="/" element={<OverviewScreen />} />;
/** The row of the person with this address (shown in parts, so that it wraps only at sensible places). */
const rowOf = async (email: string) =>
  (await screen.findAllByRole('row')).find((row) => within(row).queryByRole('cell', { name: email }))!;
/** The toasts (outside the dialog, which hides them from assistive technology while it is open). */
const toastTexts = () => [...document.querySelectorAll('.dvp-toasts li')].map((toast) => toast.textContent);
const refused = (message: string) => ({ status: 409, body: { error: { id: 'refused', code: 409, message } } });
const broken = { status: 500, body: { error: { code: 500 } } };

afterEach(() => vi.unstubAllGlobals());

describe('the overview’s confirmations when the server refuses or fails', () => {
  const cases = [
    {
      button: 'Blokkeer: Jan Jansen',
      email: 'jan@voorbeeldstad.nl',
      title: 'Gebruiker blokkeren',
      question: 'Weet je zeker dat je de gebruiker wil blokkeren?',
      confirm: 'Blokkeren',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users/u1' && init?.method === 'PUT',
      fallback: 'Fout opgetreden bij wijzigen gebruiker status.',
      success: 'Gebruiker geblokkeerd.',
      name: 'Jan Jansen',
    },
    {
      button: 'Deblokkeer: Karel Klok',
      email: 'karel@voorbeeldstad.nl',
      title: 'Gebruiker deblokkeren',
      question: 'Weet je zeker dat je de gebruiker wil deblokkeren?',
      confirm: 'Deblokkeren',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users/u2' && init?.method === 'PUT',
      fallback: 'Fout opgetreden bij wijzigen gebruiker status.',
      success: 'Gebruiker gedeblokkeerd.',
      name: 'Karel Klok',
    },
    {
      button: 'Verwijderen: Jan Jansen',
      email: 'jan@voorbeeldstad.nl',
      title: 'Gebruiker verwijderen',
      question: 'Weet je zeker dat je de gebruiker wil verwijderen?',
      confirm: 'Verwijderen',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users' && init?.method === 'DELETE',
      fallback: 'Fout opgetreden bij verwijderen gebruiker.',
      success: 'Gebruiker verwijderd.',
      name: 'Jan Jansen',
    },
    {
      button: 'Reset 2FA: Jan Jansen',
      email: 'jan@voorbeeldstad.nl',
      title: '2FA Resetten',
      question: 'Weet je zeker dat je de tweestapsverificatie van Jan Jansen wil resetten?',
      confirm: 'Resetten',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users/u1/totp' && init?.method === 'DELETE',
      fallback: 'Fout opgetreden bij het resetten van 2FA.',
      success: '2FA reset succesvol',
      name: 'Jan Jansen',
    },
    {
      button: 'Verwijderen: Gijs Gast',
      email: 'gijs@dego.nl',
      title: 'Gebruiker uit je organisatie verwijderen',
      question: 'Weet je zeker dat je Gijs Gast uit je organisatie wilt verwijderen?',
      confirm: 'Verwijderen',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users' && init?.method === 'DELETE',
      fallback: 'Fout opgetreden bij verwijderen gebruiker.',
      success: 'Gebruiker uit je organisatie verwijderd.',
      name: 'Gijs Gast',
    },
    {
      button: 'Afmelden op alle apparaten: Jan Jansen',
      email: 'jan@voorbeeldstad.nl',
      title: 'Afmelden op alle apparaten',
      question: 'Weet je zeker dat je Jan Jansen op alle apparaten wil afmelden?',
      confirm: 'Afmelden',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users/u1/sessions' && init?.method === 'DELETE',
      fallback: 'Afmelden op alle apparaten is niet gelukt.',
      success: 'Jan Jansen is op alle apparaten afgemeld.',
      name: 'Jan Jansen',
    },
    {
      button: 'Ontgrendelen: Lot Slot',
      email: 'lot@voorbeeldstad.nl',
      title: 'Account ontgrendelen',
      question: 'Het account van Lot Slot is vergrendeld omdat er te vaak een verkeerd wachtwoord is ingevuld.',
      confirm: 'Ontgrendelen',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/users/u3/lock' && init?.method === 'DELETE',
      fallback: 'Ontgrendelen van het account is niet gelukt.',
      success: 'Account ontgrendeld.',
      name: 'Lot Slot',
    },
    {
      button: 'Uitnodiging intrekken: Ina Invite',
      email: 'ina@dijkstad.nl',
      title: 'Uitnodiging intrekken',
      question: 'Weet je zeker dat je de uitnodiging van Ina Invite (ina@dijkstad.nl) wilt intrekken?',
      confirm: 'Intrekken',
      request: (url: URL, init?: RequestInit) => url.pathname === '/api/invitations/inv-1' && init?.method === 'DELETE',
      fallback: 'Intrekken van de uitnodiging is niet gelukt. Probeer het later nog eens.',
      success: 'Uitnodiging ingetrokken.',
      name: 'Ina Invite',
    },
  ];

  for (const c of cases) {
    it(`${c.title}: names the person, says a failure in the dialog, focused, and closes on success`, async () => {
      let answer: Answer = refused('Deze gebruiker hoort niet bij jouw organisatie.');
      network((url, init) => (c.request(url, init) ? answer : undefined));
      const { container } = renderAt('/', routes);
      await userEvent.click(within(await rowOf(c.email)).getByRole('button', { name: c.button }));
      const dialog = await screen.findByRole('alertdialog', { name: c.title });
      // The spec's question, and whom it is about: in the dialog and in its accessible description.
      expect(dialog).toHaveTextContent(c.question);
      const named = within(dialog).getByText(c.name);
      expect(named.closest('p')).toHaveTextContent(`Gebruiker: ${c.name} ${c.email}`);
      const description = descriptionOf(dialog);
      expect(description).toContain(c.question.slice(0, 30));
      expect(description).toContain(c.name);
      expect(description).toContain(c.email);

      // 1. The server's Dutch reason: in the dialog, which stays open, with the focus on it; no toast outside.
      const confirm = within(dialog).getByRole('button', { name: c.confirm });
      await userEvent.click(confirm);
      const alert = await within(dialog).findByRole('alert');
      expect(alert).toHaveTextContent('Deze gebruiker hoort niet bij jouw organisatie.');
      expect(alert).not.toHaveTextContent('Blijft dit gebeuren?');
      // The focus moves once the alert is on screen (an effect after rendering).
      await waitFor(() => expect(alert).toHaveFocus());
      expect(screen.getByRole('alertdialog', { name: c.title })).toBeInTheDocument();
      expect(toastTexts()).toEqual([]);
      expect(await axeViolations(container)).toEqual([]);

      // 2. No reason: the general message, the spec's text and the support address.
      answer = broken;
      await userEvent.click(confirm);
      await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Er is iets misgegaan.'));
      const general = within(dialog).getByRole('alert');
      expect(general).toHaveTextContent(c.fallback);
      expect(general).toHaveTextContent('Blijft dit gebeuren? Mail dan naar hulp@example.nl.');
      expect(within(general).getByRole('link', { name: 'hulp@example.nl' })).toHaveAttribute(
        'href',
        'mailto:hulp@example.nl',
      );
      await waitFor(() => expect(general).toHaveFocus());
      expect(toastTexts()).toEqual([]);

      // 3. Success: the dialog closes and the success toast shows.
      answer = { status: 204 };
      await userEvent.click(confirm);
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(await screen.findByText(c.success)).toBeInTheDocument();
    });
  }

  it('keeps the focus on the confirming button while the answer is awaited', async () => {
    network();
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Blokkeer/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Gebruiker blokkeren' });
    const confirm = within(dialog).getByRole('button', { name: 'Blokkeren' });
    holdBack((url) => url.pathname === '/api/users/u1');
    confirm.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(confirm).toHaveAttribute('aria-disabled', 'true'));
    // Only marked disabled: a disabled button would drop the focus to the page.
    expect(confirm).not.toBeDisabled();
    expect(confirm).toHaveFocus();
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Annuleren' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('says in the dialog when the server cannot be reached', async () => {
    network();
    unreachable((url) => url.pathname === '/api/users/u1');
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Blokkeer/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Gebruiker blokkeren' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Blokkeren' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Er is iets misgegaan.Fout opgetreden bij wijzigen gebruiker status.De server van het portaal ' +
        'is niet bereikbaar. Controleer je internetverbinding en probeer het over een paar minuten nog ' +
        'eens.Blijft dit gebeuren? Mail dan naar hulp@example.nl.',
    );
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('names the organisation’s helpdesk when no support address is configured', async () => {
    network((url, init) => (url.pathname === '/api/users/u1' && init?.method === 'PUT' ? broken : undefined), null);
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Blokkeer/ }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Blokkeren' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Er is iets misgegaan.Fout opgetreden bij wijzigen gebruiker status.Blijft dit gebeuren? Neem ' +
        'dan contact op met de helpdesk van je organisatie.',
    );
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it('keeps the spec’s text for a 2FA reset of an account that is gone', async () => {
    network((url, init) =>
      url.pathname === '/api/users/u1/totp' && init?.method === 'DELETE'
        ? { status: 404, body: { error: { code: 404, message: 'Deze gebruiker hoort niet bij jouw organisatie.' } } }
        : undefined,
    );
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Reset 2FA/ }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resetten' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(/^Kan gebruiker niet vinden\.$/);
    await waitFor(() => expect(alert).toHaveFocus());
  });
});

describe('the row buttons', () => {
  it('say whom they are for, visible text first (WCAG 2.5.3), for members, guests and invited people', async () => {
    network();
    const { container } = renderAt('/', routes);
    const names = async (email: string) =>
      within(await rowOf(email))
        .getAllByRole('button')
        .map((button) => [button.textContent, button.getAttribute('aria-label')]);
    expect(await names('bea@voorbeeldstad.nl')).toEqual([
      ['Reset 2FA', 'Reset 2FA: Bea Beheerder'],
      ['Bewerken', 'Bewerken: Bea Beheerder'],
    ]);
    expect(await names('jan@voorbeeldstad.nl')).toEqual([
      ['Reset 2FA', 'Reset 2FA: Jan Jansen'],
      ['Bewerken', 'Bewerken: Jan Jansen'],
      ['Afmelden', 'Afmelden op alle apparaten: Jan Jansen'],
      ['Blokkeer', 'Blokkeer: Jan Jansen'],
      ['Verwijderen', 'Verwijderen: Jan Jansen'],
    ]);
    expect(await names('karel@voorbeeldstad.nl')).toEqual([
      ['Bewerken', 'Bewerken: Karel Klok'],
      ['Deblokkeer', 'Deblokkeer: Karel Klok'],
      ['Verwijderen', 'Verwijderen: Karel Klok'],
    ]);
    expect(await names('gijs@dego.nl')).toEqual([
      ['Bewerken', 'Bewerken: Gijs Gast'],
      ['Verwijderen', 'Verwijderen: Gijs Gast'],
    ]);
    expect(await names('ina@dijkstad.nl')).toEqual([
      ['Opnieuw versturen', 'Opnieuw versturen van de uitnodiging: Ina Invite'],
      ['Uitnodiging intrekken', 'Uitnodiging intrekken: Ina Invite'],
    ]);
    for (const button of within(screen.getByRole('table')).getAllByRole('button')) {
      expect(button.getAttribute('aria-label')!.startsWith(button.textContent!)).toBe(true);
    }
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('the new-user and edit dialogs', () => {
  it('keep the focus on a name field the e-mail check locks, look locked, and forget its old errors', async () => {
    network((url, init) =>
      url.pathname === '/api/users' && init?.method === 'HEAD'
        ? { status: url.searchParams.get('email') === 'jan@voorbeeldstad.nl' ? 200 : 404 }
        : undefined,
    );
    const { container } = renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    // First the names' errors of an empty form.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(errorSummary()).toHaveTextContent('Vul de naam in van de aan te maken gebruiker.'));
    const email = within(dialog).getByLabelText('E-mailadres', { exact: false });
    const first = within(dialog).getByLabelText('Voornaam');
    await userEvent.type(email, 'jan@voorbeeldstad.nl');
    await userEvent.tab();
    expect(first).toHaveFocus();
    await within(dialog).findByText('Deze gebruiker heeft al een account.');
    // The field that had the focus keeps it: read-only, not disabled.
    expect(first).toHaveFocus();
    expect(first).toHaveAttribute('readonly');
    expect(first).not.toBeDisabled();
    expect(first).not.toHaveAttribute('aria-invalid');
    expect(descriptionOf(first)).toBe('Een bestaand account houdt zijn eigen naam.');
    expect(within(dialog).getByLabelText('Achternaam')).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByRole('alert', { name: 'Controleer de volgende velden:' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
    // Tab goes on to the data roles.
    await userEvent.tab();
    expect(within(dialog).getByLabelText('Achternaam')).toHaveFocus();
    await userEvent.tab();
    expect(within(dialog).getByLabelText('Ruimte en wonen')).toHaveFocus();
  });

  it('says a failure to add in the dialog, focused, with the support address only when there is one', async () => {
    let answer: Answer = broken;
    network((url, init) => {
      if (url.pathname === '/api/users' && init?.method === 'HEAD') return { status: 404 };
      if (url.pathname === '/api/users' && init?.method === 'POST') return answer;
      return undefined;
    });
    const { container } = renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'nieuw@voorbeeldstad.nl');
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Nina');
    await userEvent.type(within(dialog).getByLabelText('Achternaam'), 'Nieuw');
    const add = within(dialog).getByRole('button', { name: 'Toevoegen' });
    await userEvent.click(add);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Er is iets misgegaan.Fout bij het aanmaken van een nieuwe gebruiker. Als dit aanhoudt, neem ' +
        'dan contact op met een systeem beheerder.Blijft dit gebeuren? Mail dan naar hulp@example.nl.',
    );
    await waitFor(() => expect(alert).toHaveFocus());
    expect(toastTexts()).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);

    answer = refused('Dit e-mailadres is al in gebruik.');
    await userEvent.click(add);
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Dit e-mailadres is al in gebruik\.$/),
    );
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveFocus());

    answer = { status: 201, body: {} };
    await userEvent.click(add);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Nieuwe gebruiker aangemaakt')).toBeInTheDocument();
  });

  it('says in the dialog that the address had mail just now when the server limits mails to it (429)', async () => {
    const text = 'Er zijn net al berichten naar dit e-mailadres gestuurd. Probeer het over een paar minuten opnieuw.';
    network((url, init) => {
      if (url.pathname === '/api/users' && init?.method === 'HEAD') return { status: 404 };
      if (url.pathname === '/api/users' && init?.method === 'POST')
        return { status: 429, body: { error: { id: 'mail_throttled_recipient', code: 429, message: text } } };
      return undefined;
    });
    renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'nina@voorbeeldstad.nl');
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Nina');
    await userEvent.type(within(dialog).getByLabelText('Achternaam'), 'Nieuw');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(new RegExp(`^${text.replace(/\./g, '\\.')}$`));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('leaves out the helpdesk where the text already names someone to contact and no address is set', async () => {
    network((url, init) => (url.pathname === '/api/users' && init?.method === 'POST' ? broken : undefined), null);
    renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'nieuw@voorbeeldstad.nl');
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Nina');
    await userEvent.type(within(dialog).getByLabelText('Achternaam'), 'Nieuw');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      new RegExp(
        '^Er is iets misgegaan\\.Fout bij het aanmaken van een nieuwe gebruiker\\. ' +
          'Als dit aanhoudt, neem dan contact op met een systeem beheerder\\.$',
      ),
    );
  });

  it('says a failure to edit in the dialog: the server’s reason, or the fixed text and support address', async () => {
    let answer: Answer = refused('Dit e-mailadres is al in gebruik.');
    network((url, init) => {
      if (url.pathname === '/api/users/u1' && init?.method === 'PUT') return answer;
      if (init?.method === 'PUT' || init?.method === 'DELETE') return { status: 200, body: {} };
      return undefined;
    });
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Bewerken/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Gebruiker bewerken' });
    await userEvent.clear(within(dialog).getByLabelText('Voornaam'));
    await userEvent.type(within(dialog).getByLabelText('Voornaam'), 'Johan');
    const save = within(dialog).getByRole('button', { name: 'Opslaan' });
    await userEvent.click(save);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(/^Dit e-mailadres is al in gebruik\.$/);
    await waitFor(() => expect(alert).toHaveFocus());

    answer = broken;
    await userEvent.click(save);
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Er is iets misgegaan.Kon gebruiker niet bewerkenBlijft dit gebeuren? Mail dan naar hulp@example.nl.',
      ),
    );
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveFocus());
    expect(screen.getByRole('dialog', { name: 'Gebruiker bewerken' })).toBeInTheDocument();
    expect(toastTexts()).toEqual([]);
  });
});

describe('the edit dialog’s e-mail check', () => {
  it('checks a new address on blur as the new-user form does, refuses another account’s before saving', async () => {
    const asked: string[] = [];
    const saved: string[] = [];
    network((url, init) => {
      if (url.pathname === '/api/users' && init?.method === 'HEAD') {
        asked.push(url.searchParams.get('email') ?? '');
        return { status: url.searchParams.get('email') === 'karel@voorbeeldstad.nl' ? 200 : 404 };
      }
      if (url.pathname === '/api/users/u1' && init?.method === 'PUT') {
        saved.push(String(init.body));
        return { status: 200, body: {} };
      }
      if (init?.method === 'PUT' || init?.method === 'DELETE') return { status: 200, body: {} };
      return undefined;
    });
    const { container } = renderAt('/', routes);
    await userEvent.click(within(await rowOf('jan@voorbeeldstad.nl')).getByRole('button', { name: /^Bewerken/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Gebruiker bewerken' });
    const email = within(dialog).getByLabelText('E-mailadres', { exact: false });
    // The person's own address is not asked about.
    await userEvent.click(email);
    await userEvent.tab();
    expect(asked).toEqual([]);
    await userEvent.clear(email);
    await userEvent.type(email, ' Karel@Voorbeeldstad.nl');
    await userEvent.tab();
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(asked).toEqual(['karel@voorbeeldstad.nl']);
    expect(descriptionOf(email)).toContain('Deze gebruiker heeft al een account.');
    expect(email).not.toHaveAttribute('readonly');
    expect(await axeViolations(container)).toEqual([]);
    // Saving is refused in the form: nothing is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(errorSummary()).toHaveTextContent('Deze gebruiker heeft al een account.'));
    expect(saved).toEqual([]);
    // A free address: said as the new-user form says it, and saved.
    await userEvent.clear(email);
    await userEvent.type(email, 'jan.jansen@voorbeeldstad.nl');
    await userEvent.tab();
    await waitFor(() => expect(descriptionOf(email)).toBe('E-mailadres is nog niet in gebruik.'));
    expect(email).not.toHaveAttribute('aria-invalid');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved.map((body) => JSON.parse(body).traits.email)).toEqual(['jan.jansen@voorbeeldstad.nl']);
  });
});

describe('ending sessions and lifting a lock, for the home organisation', () => {
  it('shows the lock in the row, Ontgrendelen only while it lasts and Afmelden only for active members', async () => {
    network();
    renderAt('/', routes);
    const locked = await rowOf('lot@voorbeeldstad.nl');
    expect(locked).toHaveTextContent('Vergrendeld');
    expect(locked).toHaveTextContent('Te vaak een verkeerd wachtwoord, tot 1 januari 2999 om');
    expect(within(locked).getByRole('button', { name: 'Ontgrendelen: Lot Slot' })).toBeInTheDocument();
    const jan = await rowOf('jan@voorbeeldstad.nl');
    expect(jan).not.toHaveTextContent('Vergrendeld');
    expect(within(jan).queryByRole('button', { name: /^Ontgrendelen/ })).toBeNull();
    expect(within(jan).getByRole('button', { name: 'Afmelden op alle apparaten: Jan Jansen' })).toHaveTextContent(
      'Afmelden',
    );
    // Not for oneself (the account settings end one's other sessions), a blocked account, a guest or an invitation.
    for (const email of ['bea@voorbeeldstad.nl', 'karel@voorbeeldstad.nl', 'gijs@dego.nl', 'ina@dijkstad.nl']) {
      const row = await rowOf(email);
      expect(within(row).queryByRole('button', { name: /^Afmelden/ }), email).toBeNull();
    }
  });

  it('no longer offers Ontgrendelen once the lock has run out', async () => {
    const expired = { lockedUntil: '2000-01-01T00:00:00Z' };
    list[3] = { ...list[3]!, ...expired };
    try {
      network();
      renderAt('/', routes);
      const row = await rowOf('lot@voorbeeldstad.nl');
      expect(row).not.toHaveTextContent('Vergrendeld');
      expect(within(row).queryByRole('button', { name: /^Ontgrendelen/ })).toBeNull();
    } finally {
      const locked = { lockedUntil: '2999-01-01T10:15:00Z' };
      list[3] = { ...list[3]!, ...locked };
    }
  });
});
