import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import { axeViolations } from '../test-axe';
import ProgrammeScreen from './ProgrammeScreen';
import { PROGRAMME_ADMINISTRATOR, refusal } from './test-programme';
import { whoamiOf } from '../test-users-api';
import type { OrganisationSummary } from './programme-api';

type Organisation = OrganisationSummary;

const VOORBEELDSTAD: Organisation = {
  id: 'voorbeeldstad',
  label: 'Gemeente Voorbeeldstad',
  requiresAal2: true,
  active: true,
  dataRoles: [
    { id: 'ruimte', label: 'Ruimte en wonen', holders: 5 },
    { id: 'sociaal-domein', label: 'Sociaal domein', holders: 3 },
    { id: 'jeugd', label: 'Jeugd', holders: 1 },
  ],
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
  dataRoles: [{ id: 'ondersteuning', label: 'Ondersteuning', holders: 0 }],
  members: 4,
  administrators: 1,
  pendingInvitations: 0,
  lastSignIn: null,
};

const routes = <Route path="/programmabeheer" element={<ProgrammeScreen />} />;

const NAME_RULE = 'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.';
const CODE_RULE = 'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.';

const HIDDEN = /[\u200b-\u200f\u202a-\u202e]/;

/**
 * The Users API of 'Programmabeheer' with the server's rules (packages/users-api/src/routes/programme-routes.ts):
 * a taken code is 409, a name with a hidden character 400; an administrator's address decides what inviting does;
 * retiring a data role answers how many people held it.
 */
function programmeServer(options: { whoami?: unknown; list?: { status: number; body: unknown } } = {}) {
  const organisations = [structuredClone(VOORBEELDSTAD), structuredClone(DEGO)];
  const calls = fakeNetwork((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/users/whoami') return { status: 200, body: options.whoami ?? PROGRAMME_ADMINISTRATOR };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/programme/organisations' && method === 'GET')
      return options.list ?? { status: 200, body: { organisations } };
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, any>) : {};
    if (url.pathname === '/api/programme/organisations' && method === 'POST') {
      if (organisations.some((o) => o.id === body.id))
        return refusal(409, 'organisation_exists', 'x', 'An organisation with this id exists already.');
      if (HIDDEN.test(body.label))
        return refusal(400, 'invalid_request', NAME_RULE, 'The organisation name is not valid.');
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
    const roles = /^\/api\/programme\/organisations\/([^/]+)\/data-roles(?:\/([^/]+))?$/.exec(url.pathname);
    if (roles) return dataRoles(organisations, roles[1]!, roles[2], method, body);
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
        return refusal(409, 'email_in_use', 'In gebruik.', 'An account with this e-mail address exists already.');
      one.pendingInvitations += 1;
      return { status: 201, body: { kind: 'created' } };
    }
    return undefined;
  });
  return { calls, organisations };
}

/** `POST`, `PATCH` and `DELETE` of an organisation's data roles, as programme/programme-data-roles.ts does them. */
function dataRoles(
  organisations: Organisation[],
  orgId: string,
  roleId: string | undefined,
  method: string,
  body: Record<string, any>,
) {
  const organisation = organisations.find((o) => o.id === orgId);
  if (!organisation) return refusal(404, 'organisation_not_found', 'x', 'The organisation does not exist.');
  if (roleId === undefined && method === 'POST') {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(body.id))
      return refusal(400, 'invalid_request', CODE_RULE, 'The organisation id is not valid.');
    if (HIDDEN.test(body.label))
      return refusal(400, 'invalid_request', NAME_RULE, 'The organisation name is not valid.');
    if (organisation.dataRoles.some((role) => role.id === body.id))
      return refusal(409, 'data_role_exists', 'x', 'The organisation has a data role with this id already.');
    organisation.dataRoles.push({ id: body.id, label: body.label, holders: 0 });
    return { status: 201, body: organisation };
  }
  const role = organisation.dataRoles.find((r) => r.id === roleId);
  if (!role) return refusal(404, 'data_role_not_found', 'Deze datarol bestaat niet.', 'The data role does not exist.');
  if (method === 'PATCH') {
    role.label = body.label;
    return { status: 200, body: organisation };
  }
  if (method === 'DELETE') {
    organisation.dataRoles = organisation.dataRoles.filter((r) => r !== role);
    return { status: 200, body: { holders: role.holders, organisation } };
  }
  return undefined;
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
const rolesDialog = (label: string) => screen.getByRole('dialog', { name: `Datarollen van ${label}` });
/** The data roles the dialog lists, each as its text: name, code, holders, buttons. */
const roleItems = (label: string) =>
  within(within(rolesDialog(label)).getByRole('list', { name: `Datarollen van ${label}` }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const bodyOf = (call: ReturnType<typeof fakeNetwork>[number]) => JSON.parse(String(call.init?.body)) as unknown;

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
    await waitFor(() => expect(errorSummary()).toHaveFocus());
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
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    // Five dialogs typed key by key and an axe check: 1.5 to 3 s on a quiet machine, over the default 5 s on one
    // that runs another test run beside it.
  }, 15_000);

  it('deactivates an organisation after saying what follows, shows it, and makes it active again', async () => {
    const { calls } = programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Deactiveren: Gemeente Voorbeeldstad' }));
    const ask = screen.getByRole('alertdialog', { name: 'Organisatie deactiveren' });
    expect(ask).toHaveAccessibleDescription(
      'Leden van Gemeente Voorbeeldstad kunnen dan geen datavoorzieningen meer gebruiken via deze organisatie. Er ' +
        'wordt niets verwijderd; je kunt de organisatie later weer activeren.',
    );
    expect(await axeViolations(container)).toEqual([]);
    // 'Annuleren' changes nothing.
    await userEvent.click(within(ask).getByRole('button', { name: 'Annuleren' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(writes(calls)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Deactiveren: Gemeente Voorbeeldstad' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Organisatie deactiveren' })).getByRole('button', {
        name: 'Deactiveren',
      }),
    );
    expect(await within(toasts()).findByText('Gemeente Voorbeeldstad is gedeactiveerd.')).toBeVisible();
    const [deactivate] = writes(calls);
    expect(deactivate!.init?.method).toBe('PATCH');
    expect(deactivate!.url.pathname).toBe('/api/programme/organisations/voorbeeldstad');
    expect(bodyOf(deactivate!)).toEqual({ active: false });
    expect(cells(rowOf('Gemeente Voorbeeldstad'))[0]).toBe('Gemeente VoorbeeldstadGedeactiveerdCode: voorbeeldstad');
    expect(cells(rowOf('DEGO'))[0]).toBe('DEGOCode: dego');
    // The same button, now the other way round, has the focus again.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Activeren: Gemeente Voorbeeldstad' })).toHaveFocus(),
    );
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.keyboard('{Enter}');
    const again = screen.getByRole('alertdialog', { name: 'Organisatie activeren' });
    expect(again).toHaveAccessibleDescription(
      'Leden van Gemeente Voorbeeldstad kunnen dan weer datavoorzieningen gebruiken via deze organisatie, met de ' +
        'datarollen die ze hebben.',
    );
    await userEvent.click(within(again).getByRole('button', { name: 'Activeren' }));
    expect(await within(toasts()).findByText('Gemeente Voorbeeldstad is weer actief.')).toBeVisible();
    expect(bodyOf(writes(calls)[1]!)).toEqual({ active: true });
    expect(cells(rowOf('Gemeente Voorbeeldstad'))[0]).toBe('Gemeente VoorbeeldstadCode: voorbeeldstad');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Deactiveren: Gemeente Voorbeeldstad' })).toHaveFocus(),
    );
  });

  it("lists an organisation's data roles with their holders and adds one; a taken code is said at 'Code'", async () => {
    const { calls, organisations } = programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Datarollen: Gemeente Voorbeeldstad' }));
    // By name, each with its code and how many people hold it.
    expect(roleItems('Gemeente Voorbeeldstad')).toEqual([
      'JeugdCode: jeugd1 persoon heeft deze datarolHernoemenOpheffen',
      'Ruimte en wonenCode: ruimte5 personen hebben deze datarolHernoemenOpheffen',
      'Sociaal domeinCode: sociaal-domein3 personen hebben deze datarolHernoemenOpheffen',
    ]);
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(
      within(rolesDialog('Gemeente Voorbeeldstad')).getByRole('button', { name: 'Datarol toevoegen' }),
    );
    const add = screen.getByRole('dialog', { name: 'Datarol toevoegen' });
    expect(within(add).getByText(/bijvoorbeeld sociaal-domein\. De code verandert niet meer\./)).toBeVisible();
    // Escape closes this dialog only.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Datarol toevoegen' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Datarol toevoegen' })).toHaveFocus());

    await userEvent.click(screen.getByRole('button', { name: 'Datarol toevoegen' }));
    const form = screen.getByRole('dialog', { name: 'Datarol toevoegen' });
    const code = within(form).getByLabelText('Code');
    await userEvent.type(code, 'Sociaal_Domein');
    await userEvent.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual([CODE_RULE, NAME_RULE]);
    expect(writes(calls)).toEqual([]);

    await userEvent.clear(code);
    await userEvent.type(code, 'sociaal-domein');
    await userEvent.type(within(form).getByLabelText('Naam'), 'Wonen');
    await userEvent.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(summaryItems()).toEqual(['Deze organisatie heeft al een datarol met deze code.']));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining('Deze organisatie heeft al een datarol met deze code.'),
    );
    expect(within(form).getByLabelText('Naam')).not.toHaveAttribute('aria-invalid');
    expect(organisations[0]!.dataRoles).toHaveLength(3);
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.clear(code);
    await userEvent.type(code, 'wonen');
    await userEvent.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Datarol toevoegen' })).toBeNull());
    const post = writes(calls)[1]!;
    expect([post.init?.method, post.url.pathname]).toEqual([
      'POST',
      '/api/programme/organisations/voorbeeldstad/data-roles',
    ]);
    expect(bodyOf(post)).toEqual({ id: 'wonen', label: 'Wonen' });
    // The dialog stays open and says what was done itself: the modal hides the toasts.
    const dialog = rolesDialog('Gemeente Voorbeeldstad');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Datarol Wonen toegevoegd.');
    expect(roleItems('Gemeente Voorbeeldstad').at(-1)).toBe(
      'WonenCode: wonenNiemand heeft deze datarolHernoemenOpheffen',
    );
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Datarol toevoegen' })).toHaveFocus());
    expect(await axeViolations(container)).toEqual([]);

    // A name the server refuses is said at 'Naam'.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Datarol toevoegen' }));
    const refused = screen.getByRole('dialog', { name: 'Datarol toevoegen' });
    await userEvent.type(within(refused).getByLabelText('Code'), 'regel');
    await userEvent.click(within(refused).getByLabelText('Naam'));
    await userEvent.paste('Regel \u202eomgekeerd');
    await userEvent.click(within(refused).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(within(refused).getByLabelText('Naam')).toHaveAttribute('aria-invalid', 'true'));
    expect(summaryItems()).toEqual([NAME_RULE]);
    await userEvent.click(within(refused).getByRole('button', { name: 'Annuleren' }));

    await userEvent.click(within(rolesDialog('Gemeente Voorbeeldstad')).getByRole('button', { name: 'Sluiten' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Datarollen: Gemeente Voorbeeldstad' })).toHaveFocus(),
    );
  });

  it('renames a data role: its code stays, and only a new name is sent', async () => {
    const { calls } = programmeServer();
    renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Datarollen: Gemeente Voorbeeldstad' }));
    await userEvent.click(screen.getByRole('button', { name: 'Hernoemen: Sociaal domein' }));
    const form = screen.getByRole('dialog', { name: 'Datarol hernoemen' });
    expect(within(form).getByLabelText('Code')).toHaveValue('sociaal-domein');
    expect(within(form).getByLabelText('Code')).toHaveAttribute('readonly');
    const name = within(form).getByLabelText('Naam');
    expect(name).toHaveValue('Sociaal domein');
    await userEvent.clear(name);
    await userEvent.type(name, 'Sociaal domein en zorg');
    await userEvent.click(within(form).getByRole('button', { name: 'Opslaan' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Datarol hernoemen' })).toBeNull());
    const [patch] = writes(calls);
    expect([patch!.init?.method, patch!.url.pathname]).toEqual([
      'PATCH',
      '/api/programme/organisations/voorbeeldstad/data-roles/sociaal-domein',
    ]);
    expect(bodyOf(patch!)).toEqual({ label: 'Sociaal domein en zorg' });
    const dialog = rolesDialog('Gemeente Voorbeeldstad');
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Datarol Sociaal domein hernoemd tot Sociaal domein en zorg.',
    );
    expect(roleItems('Gemeente Voorbeeldstad')).toContain(
      'Sociaal domein en zorgCode: sociaal-domein3 personen hebben deze datarolHernoemenOpheffen',
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Hernoemen: Sociaal domein en zorg' })).toHaveFocus(),
    );
  });

  it('retires a data role after saying how many people lose it, and says how many did', async () => {
    const { calls, organisations } = programmeServer();
    const { container } = renderAt('/programmabeheer', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Datarollen: Gemeente Voorbeeldstad' }));
    await userEvent.click(screen.getByRole('button', { name: 'Opheffen: Sociaal domein' }));
    const ask = screen.getByRole('alertdialog', { name: 'Datarol opheffen' });
    expect(ask).toHaveAccessibleDescription(
      'Als je Sociaal domein opheft, verliezen 3 personen deze datarol en daarmee de toegang tot de ' +
        'datavoorzieningen die erbij horen. Dit kan niet ongedaan worden gemaakt.',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(ask).getByRole('button', { name: 'Annuleren' }));
    expect(writes(calls)).toEqual([]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Opheffen: Sociaal domein' })).toHaveFocus());

    await userEvent.click(screen.getByRole('button', { name: 'Opheffen: Sociaal domein' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Datarol opheffen' })).getByRole('button', { name: 'Opheffen' }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const [retire] = writes(calls);
    expect([retire!.init?.method, retire!.url.pathname]).toEqual([
      'DELETE',
      '/api/programme/organisations/voorbeeldstad/data-roles/sociaal-domein',
    ]);
    const dialog = rolesDialog('Gemeente Voorbeeldstad');
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Datarol Sociaal domein opgeheven; 3 personen hebben hem niet meer.',
    );
    expect(roleItems('Gemeente Voorbeeldstad').map((item) => item?.split('Code')[0])).toEqual([
      'Jeugd',
      'Ruimte en wonen',
    ]);
    // Its button is gone: the focus goes to 'Datarol toevoegen'.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Datarol toevoegen' })).toHaveFocus());

    // One holder; and retired by someone else meanwhile: the server's reason, in the dialog, which stays open.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opheffen: Jeugd' }));
    const one = screen.getByRole('alertdialog', { name: 'Datarol opheffen' });
    expect(one).toHaveAccessibleDescription(expect.stringMatching(/^Als je Jeugd opheft, verliest 1 persoon deze/));
    organisations[0]!.dataRoles = organisations[0]!.dataRoles.filter((role) => role.id !== 'jeugd');
    await userEvent.click(within(one).getByRole('button', { name: 'Opheffen' }));
    expect(await within(one).findByRole('alert')).toHaveTextContent('Deze datarol bestaat niet.');
    await waitFor(() => expect(within(one).getByRole('alert')).toHaveFocus());
    await userEvent.click(within(one).getByRole('button', { name: 'Annuleren' }));
    await userEvent.click(within(rolesDialog('Gemeente Voorbeeldstad')).getByRole('button', { name: 'Sluiten' }));

    // Nobody holds it: the confirmation says so, and so does what follows.
    await userEvent.click(screen.getByRole('button', { name: 'Datarollen: DEGO' }));
    await userEvent.click(screen.getByRole('button', { name: 'Opheffen: Ondersteuning' }));
    const nobody = screen.getByRole('alertdialog', { name: 'Datarol opheffen' });
    expect(nobody).toHaveAccessibleDescription(
      expect.stringMatching(/^Niemand heeft deze datarol\. Als je Ondersteuning/),
    );
    await userEvent.click(within(nobody).getByRole('button', { name: 'Opheffen' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(rolesDialog('DEGO')).getByRole('status')).toHaveTextContent('Datarol Ondersteuning opgeheven.');
    expect(within(rolesDialog('DEGO')).getByText('DEGO heeft nog geen datarollen.')).toBeVisible();
    expect(writes(calls).at(-1)!.url.pathname).toBe('/api/programme/organisations/dego/data-roles/ondersteuning');
  });

  it('says a refusal of the list in Dutch, and asks nothing for one who is no programme administrator', async () => {
    const message = 'Alleen programmabeheerders mogen dit doen.';
    programmeServer({
      list: refusal(403, 'forbidden_not_programme_admin', message, 'Only programme administrators may do this.'),
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
