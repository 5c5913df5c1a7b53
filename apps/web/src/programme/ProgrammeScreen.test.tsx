import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import { axeViolations } from '../test-axe';
import { whoamiOf } from '../test-users-api';
import ProgrammeScreen from './ProgrammeScreen';
import type { OrganisationSummary } from './programme-api';

type Organisation = OrganisationSummary;

const VOORBEELDSTAD: Organisation = {
  id: 'voorbeeldstad',
  label: 'Gemeente Voorbeeldstad',
  requiresAal2: true,
  active: true,
  dataRoles: [{ id: 'ruimte', label: 'Ruimte en wonen', holders: 5 }],
  members: 12,
  administrators: 2,
  pendingInvitations: 3,
  lastSignIn: '2026-11-20T09:05:00.000Z',
};
const DEGO: Organisation = {
  id: 'dego',
  label: 'DEGO',
  requiresAal2: false,
  active: true,
  dataRoles: [],
  members: 4,
  administrators: 1,
  pendingInvitations: 0,
  lastSignIn: null,
};

/** A programme administrator who belongs to no organisation, signed in with her second factor. */
const PIM = whoamiOf({
  identity: {
    id: 'pim',
    traits: { email: 'pim@programma.nl', name: { first: 'Pim', last: 'Programma' } },
    credentials: ['password', 'totp'],
  },
  activeOrg: null,
  isAdmin: false,
  organisations: [],
  isProgrammeAdmin: true,
});

const routes = <Route path="/programmabeheer" element={<ProgrammeScreen />} />;

const NAME_RULE = 'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.';
const CODE_RULE = 'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.';

const refusal = (status: number, id: string, reason: string, message: string) => ({
  status,
  body: { error: { code: status, id, reason, message } },
});

/**
 * The Users API of 'Programmabeheer' with the server's rules (packages/users-api/src/routes/programme-routes.ts):
 * a taken code is 409, a name with a hidden character 400; an administrator's address decides what inviting does.
 */
function programmeServer(options: { whoami?: unknown; list?: { status: number; body: unknown } } = {}) {
  const organisations = [structuredClone(VOORBEELDSTAD), structuredClone(DEGO)];
  const calls = fakeNetwork((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/users/whoami') return { status: 200, body: options.whoami ?? PIM };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/programme/organisations' && method === 'GET')
      return options.list ?? { status: 200, body: { organisations } };
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, any>) : {};
    if (url.pathname === '/api/programme/organisations' && method === 'POST') {
      if (organisations.some((o) => o.id === body.id))
        return refusal(409, 'organisation_exists', 'An organisation with this id exists already.', 'x');
      if (/[\u200b-\u200f\u202a-\u202e]/.test(body.label))
        return refusal(400, 'invalid_request', 'The organisation name is not valid.', NAME_RULE);
      const { id, label, requiresAal2 } = body;
      const added: Organisation = {
        id,
        label,
        requiresAal2,
        active: true,
        dataRoles: [],
        members: 0,
        administrators: 0,
        pendingInvitations: 0,
        lastSignIn: null,
      };
      organisations.push(added);
      return { status: 201, body: added };
    }
    const one = organisations.find((o) => url.pathname.startsWith(`/api/programme/organisations/${o.id}`));
    if (!one) return undefined;
    if (method === 'PATCH') {
      Object.assign(one, body);
      return { status: 200, body: one };
    }
    if (url.pathname.endsWith('/administrators') && method === 'POST') {
      const email: string = body.traits.email;
      if (email === 'bestaand@elders.nl') return { status: 200, body: { kind: 'invited' } };
      if (email === 'lid@voorbeeldstad.nl') return { status: 200, body: { kind: 'added' } };
      if (email === 'dubbel@voorbeeldstad.nl')
        return refusal(409, 'email_in_use', 'An account with this e-mail address exists already.', 'In gebruik.');
      one.pendingInvitations += 1;
      return { status: 201, body: { kind: 'created' } };
    }
    return undefined;
  });
  return { calls, organisations };
}

const writes = (calls: ReturnType<typeof fakeNetwork>) =>
  calls.filter((call) => call.init?.method && call.init.method !== 'GET');

const table = () => screen.getByRole('table', { name: 'Organisaties van het programma' });
const rowOf = (label: string) =>
  within(table())
    .getAllByRole('row')
    .find((row) => within(row).queryByRole('button', { name: `Wijzigen: ${label}` }))!;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const toasts = () => screen.getByRole('list', { name: 'Meldingen' });

afterEach(() => vi.unstubAllGlobals());

describe('ProgrammeScreen', () => {
  it('lists the organisations by name with their counts, last sign-in and second-factor rule', async () => {
    programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Programmabeheer' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Programmabeheer – Datavoorzieningen Portaal'));
    expect(screen.getByRole('heading', { level: 2, name: 'Organisaties' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Organisaties van het programma' });
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Organisatie',
      'Leden',
      'Beheerders',
      'Openstaande uitnodigingen',
      'Laatst ingelogd',
      'Tweede factor',
      'Acties',
    ]);
    // By name: DEGO before Gemeente Voorbeeldstad, whatever the server's order.
    const [, dego, voorbeeldstad] = within(table()).getAllByRole('row');
    expect(cells(dego!).slice(0, 6)).toEqual(['DEGOCode: dego', '4', '1', '0', 'Nog nooit', 'Niet verplicht']);
    const [organisation, members, admins, pending, lastSignIn, factor] = cells(voorbeeldstad!);
    expect([organisation, members, admins, pending, factor]).toEqual([
      'Gemeente VoorbeeldstadCode: voorbeeldstad',
      '12',
      '2',
      '3',
      'Verplicht',
    ]);
    expect(lastSignIn).toMatch(/^20 november 2026 om \d\d:05$/);
    expect(within(voorbeeldstad!).getByRole('button', { name: 'Wijzigen: Gemeente Voorbeeldstad' })).toHaveTextContent(
      'Wijzigen',
    );
    expect(
      within(voorbeeldstad!).getByRole('button', { name: 'Beheerder uitnodigen: Gemeente Voorbeeldstad' }),
    ).toHaveTextContent('Beheerder uitnodigen');
    expect(screen.getByText('Je bent ingelogd als programmabeheerder')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it("adds an organisation; a taken code is said at 'Code' and adds nothing", async () => {
    const { calls, organisations } = programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    const add = await screen.findByRole('button', { name: 'Organisatie toevoegen' });
    await userEvent.click(add);
    const dialog = screen.getByRole('dialog', { name: 'Organisatie toevoegen' });
    expect(within(dialog).getByRole('checkbox', { name: 'Tweede factor verplicht' })).toBeChecked();
    expect(within(dialog).getByText(/bijvoorbeeld gemeente-nieuwstad\. De code verandert niet meer\./)).toBeVisible();

    // The form's own checks, in the server's words, before anything is sent.
    await userEvent.type(within(dialog).getByLabelText('Code'), 'Nieuw_Stad');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual([CODE_RULE, NAME_RULE]);
    expect(writes(calls)).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);

    const code = within(dialog).getByLabelText('Code');
    await userEvent.clear(code);
    await userEvent.type(code, 'voorbeeldstad');
    await userEvent.type(within(dialog).getByLabelText('Naam'), 'Gemeente Nieuwstad');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(summaryItems()).toEqual(['Er bestaat al een organisatie met deze code.']));
    expect(errorSummary()).toHaveFocus();
    expect(within(dialog).getByLabelText('Code')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Code')).toHaveAccessibleDescription(
      expect.stringContaining('Er bestaat al een organisatie met deze code.'),
    );
    expect(writes(calls)).toHaveLength(1);
    expect(organisations.map((o) => o.id)).toEqual(['voorbeeldstad', 'dego']);

    await userEvent.clear(code);
    await userEvent.type(code, 'nieuwstad');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    expect(await within(toasts()).findByText('Organisatie Gemeente Nieuwstad toegevoegd.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(String(writes(calls)[1]!.init?.body))).toEqual({
      id: 'nieuwstad',
      label: 'Gemeente Nieuwstad',
      requiresAal2: true,
    });
    expect(cells(rowOf('Gemeente Nieuwstad')).slice(0, 6)).toEqual([
      'Gemeente NieuwstadCode: nieuwstad',
      '0',
      '0',
      '0',
      'Nog nooit',
      'Verplicht',
    ]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Organisatie toevoegen' })).toHaveFocus());
  });

  it("shows the server's Dutch refusal of a name at 'Naam'", async () => {
    const { organisations } = programmeServer();
    renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Organisatie toevoegen' }));
    const dialog = screen.getByRole('dialog', { name: 'Organisatie toevoegen' });
    await userEvent.type(within(dialog).getByLabelText('Code'), 'regel-stad');
    // A right-to-left override pasted into the name: the form lets it pass, the server refuses it.
    await userEvent.click(within(dialog).getByLabelText('Naam'));
    await userEvent.paste('Gemeente \u202eRegel');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Tweede factor verplicht' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Naam')).toHaveAttribute('aria-invalid', 'true'));
    expect(summaryItems()).toEqual([NAME_RULE]);
    expect(within(dialog).getByLabelText('Code')).not.toHaveAttribute('aria-invalid');
    expect(organisations).toHaveLength(2);
  });

  it('changes the name and the second-factor rule; the code stays, and only what changed is sent', async () => {
    const { calls } = programmeServer();
    renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Wijzigen: Gemeente Voorbeeldstad' }));
    const dialog = screen.getByRole('dialog', { name: 'Organisatie wijzigen' });
    expect(within(dialog).getByLabelText('Code')).toHaveValue('voorbeeldstad');
    expect(within(dialog).getByLabelText('Code')).toHaveAttribute('readonly');
    // Nothing changed: nothing is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Wijzigen: Gemeente Voorbeeldstad' }));
    const again = screen.getByRole('dialog', { name: 'Organisatie wijzigen' });
    const name = within(again).getByLabelText('Naam');
    await userEvent.clear(name);
    await userEvent.type(name, 'Gemeente Voorbeeldstad-Noord');
    await userEvent.click(within(again).getByRole('checkbox', { name: 'Tweede factor verplicht' }));
    await userEvent.click(within(again).getByRole('button', { name: 'Opslaan' }));
    expect(await within(toasts()).findByText('Organisatie Gemeente Voorbeeldstad-Noord gewijzigd.')).toBeVisible();
    const [patch] = writes(calls);
    expect(patch!.init?.method).toBe('PATCH');
    expect(patch!.url.pathname).toBe('/api/programme/organisations/voorbeeldstad');
    expect(JSON.parse(String(patch!.init?.body))).toEqual({
      label: 'Gemeente Voorbeeldstad-Noord',
      requiresAal2: false,
    });
    const row = rowOf('Gemeente Voorbeeldstad-Noord');
    expect(cells(row)[5]).toBe('Niet verplicht');
    await waitFor(() =>
      expect(within(row).getByRole('button', { name: 'Wijzigen: Gemeente Voorbeeldstad-Noord' })).toHaveFocus(),
    );
  });

  it('invites an administrator and says what the server did: a new account, an invitation, or a member', async () => {
    const { calls } = programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    const invite = async (first: string, last: string, email: string) => {
      await userEvent.click(
        await screen.findByRole('button', { name: 'Beheerder uitnodigen: Gemeente Voorbeeldstad' }),
      );
      const dialog = screen.getByRole('dialog', { name: 'Beheerder uitnodigen' });
      await userEvent.type(within(dialog).getByLabelText('Voornaam'), first);
      await userEvent.type(within(dialog).getByLabelText('Achternaam'), last);
      await userEvent.type(within(dialog).getByLabelText('E-mailadres'), email);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Uitnodigen' }));
      return dialog;
    };

    await userEvent.click(await screen.findByRole('button', { name: 'Beheerder uitnodigen: Gemeente Voorbeeldstad' }));
    const empty = screen.getByRole('dialog', { name: 'Beheerder uitnodigen' });
    expect(
      within(empty).getByText(
        'De persoon krijgt een e-mail om een wachtwoord en een tweede factor in te stellen en is daarna beheerder ' +
          'van Gemeente Voorbeeldstad.',
      ),
    ).toBeVisible();
    await userEvent.type(within(empty).getByLabelText('E-mailadres'), 'geen-adres');
    await userEvent.click(within(empty).getByRole('button', { name: 'Uitnodigen' }));
    await waitFor(() =>
      expect(summaryItems()).toEqual([
        'Vul de naam in van de gebruiker (1 tot 50 tekens).',
        'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
      ]),
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(empty).getByRole('button', { name: 'Annuleren' }));
    expect(writes(calls)).toEqual([]);

    await invite('Noor', 'de Vries', 'noor@voorbeeldstad.nl');
    expect(
      await within(toasts()).findByText('Noor de Vries is uitgenodigd als beheerder van Gemeente Voorbeeldstad.'),
    ).toBeVisible();
    expect(JSON.parse(String(writes(calls)[0]!.init?.body))).toEqual({
      traits: { email: 'noor@voorbeeldstad.nl', name: { first: 'Noor', last: 'de Vries' } },
    });
    // The list is fetched again: the new account waits for its first sign-in.
    await waitFor(() => expect(cells(rowOf('Gemeente Voorbeeldstad'))[3]).toBe('4'));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Beheerder uitnodigen: Gemeente Voorbeeldstad' })).toHaveFocus(),
    );

    await invite('Gert', 'Gast', 'bestaand@elders.nl');
    expect(
      await within(toasts()).findByText(
        'Gert Gast heeft een uitnodiging gekregen om beheerder van Gemeente Voorbeeldstad te worden.',
      ),
    ).toBeVisible();

    await invite('Lies', 'Lid', 'lid@voorbeeldstad.nl');
    expect(await within(toasts()).findByText('Lies Lid is nu beheerder van Gemeente Voorbeeldstad.')).toBeVisible();

    // A refusal of the address is said at the field; the dialog stays open.
    const refused = await invite('Dirk', 'Dubbel', 'dubbel@voorbeeldstad.nl');
    await waitFor(() => expect(within(refused).getByLabelText('E-mailadres')).toHaveAttribute('aria-invalid', 'true'));
    expect(summaryItems()).toEqual(['In gebruik.']);
    expect(errorSummary()).toHaveFocus();
  });

  it('says a refusal of the list in Dutch, and asks nothing for one who is no programme administrator', async () => {
    const message = 'Alleen programmabeheerders mogen dit doen.';
    programmeServer({
      list: refusal(403, 'forbidden_not_programme_admin', 'Only programme administrators may do this.', message),
    });
    renderAt('/programmabeheer', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Organisatie toevoegen' })).toBeNull();
    vi.unstubAllGlobals();
    cleanup();

    const { calls } = programmeServer({ whoami: whoamiOf({ isProgrammeAdmin: false }) });
    renderAt('/programmabeheer', routes);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls.some((call) => call.url.pathname.startsWith('/api/programme'))).toBe(false);
  });
});
