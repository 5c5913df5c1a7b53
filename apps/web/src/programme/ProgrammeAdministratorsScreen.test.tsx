import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import type { ProgrammeAdministrator } from './administrators-api';
import ProgrammeAdministratorsScreen from './ProgrammeAdministratorsScreen';
import { PROGRAMME_ADMINISTRATOR, refusal } from './test-programme';

const PIM: ProgrammeAdministrator = {
  id: 'pim',
  email: 'pim@programma.nl',
  name: { first: 'Pim', last: 'Programma' },
};
const NOOR: ProgrammeAdministrator = {
  id: 'noor',
  email: 'noor@programma.nl',
  name: { first: 'Noor', last: 'Nieuw' },
};
const ANNE: ProgrammeAdministrator = {
  id: 'anne',
  email: 'anne@voorbeeldstad.nl',
  name: { first: 'Anne', last: 'Arts' },
};

/** The Users API as programme/programme-administrators.ts answers: an account by its address, at least one kept. */
function administratorsServer() {
  let holders = [NOOR, PIM];
  const calls = fakeNetwork((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/users/whoami') return { status: 200, body: PROGRAMME_ADMINISTRATOR };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/programme/administrators' && method === 'GET')
      return { status: 200, body: { administrators: holders } };
    if (url.pathname === '/api/programme/administrators' && method === 'POST') {
      const { email } = JSON.parse(String(init?.body)) as { email: string };
      if (holders.some((h) => h.email === email))
        return refusal(409, 'programme_admin_exists', 'Deze persoon is al programmabeheerder.');
      if (email !== ANNE.email) return refusal(404, 'identity_not_found', 'Er is geen account met dit e-mailadres.');
      holders = [ANNE, ...holders];
      return { status: 201, body: ANNE };
    }
    const id = /^\/api\/programme\/administrators\/(.+)$/.exec(url.pathname)?.[1];
    if (id && method === 'DELETE') {
      if (holders.length === 1)
        return refusal(409, 'last_programme_admin', 'Er moet minstens één programmabeheerder overblijven.');
      holders = holders.filter((h) => h.id !== id);
      return { status: 204 };
    }
    return undefined;
  });
  return { calls, left: () => holders };
}

const routes = <Route path="/programmabeheer/beheerders" element={<ProgrammeAdministratorsScreen />} />;
const names = () =>
  within(screen.getByRole('table', { name: 'Programmabeheerders' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('ProgrammeAdministratorsScreen', () => {
  it('lists who holds the role, oneself marked, and makes the holder of an account one', async () => {
    const user = userEvent.setup();
    const { calls } = administratorsServer();
    const { container } = renderAt('/programmabeheer/beheerders', routes);
    await screen.findByRole('table', { name: 'Programmabeheerders' });
    expect(names()).toEqual(['Noor Nieuw', 'Pim Programma (jij)']);
    expect(await axeViolations(container)).toEqual([]);

    const add = screen.getByRole('button', { name: 'Programmabeheerder toevoegen' });
    await user.click(add);
    const dialog = screen.getByRole('dialog', { name: 'Programmabeheerder toevoegen' });
    await user.type(within(dialog).getByLabelText('E-mailadres'), 'onbekend@voorbeeldstad.nl');
    await user.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(summaryItems()).toEqual(['Er is geen account met dit e-mailadres.']));
    await waitFor(() => expect(errorSummary()).toHaveFocus());

    await user.clear(within(dialog).getByLabelText('E-mailadres'));
    await user.type(within(dialog).getByLabelText('E-mailadres'), ' Anne@Voorbeeldstad.nl ');
    await user.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    await screen.findByText('Anne Arts is nu programmabeheerder.');
    expect(names()).toEqual(['Anne Arts', 'Noor Nieuw', 'Pim Programma (jij)']);
    const posted = calls.filter((call) => call.init?.method === 'POST').map((call) => String(call.init?.body));
    expect(posted).toEqual(['{"email":"onbekend@voorbeeldstad.nl"}', '{"email":"anne@voorbeeldstad.nl"}']);
    await waitFor(() => expect(add).toHaveFocus());
  });

  it('withdraws the role after saying what follows; the last one is kept, and the dialog says so', async () => {
    const user = userEvent.setup();
    const { left } = administratorsServer();
    renderAt('/programmabeheer/beheerders', routes);
    await user.click(await screen.findByRole('button', { name: 'Intrekken: Noor Nieuw' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Rol intrekken' });
    expect(confirm).toHaveTextContent(
      'Noor Nieuw kan daarna de organisaties, datarollen en datavoorzieningen niet meer beheren.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Intrekken' }));
    await screen.findByText('Noor Nieuw is geen programmabeheerder meer.');
    expect(left()).toEqual([PIM]);

    await user.click(await screen.findByRole('button', { name: 'Intrekken: Pim Programma' }));
    const own = screen.getByRole('alertdialog', { name: 'Rol intrekken' });
    expect(own).toHaveTextContent('Je kunt daarna zelf de organisaties, datarollen en datavoorzieningen niet meer');
    await user.click(within(own).getByRole('button', { name: 'Intrekken' }));
    await within(own).findByText('Er moet minstens één programmabeheerder overblijven.');
    expect(left()).toEqual([PIM]);
  });
});
