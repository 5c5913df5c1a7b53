import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { whoamiOf } from '../test-users-api';
import AccessReviewScreen from './AccessReviewScreen';

const ANNE = {
  userId: '0190a1b2-0000-7000-8000-000000000001',
  name: { first: 'Anne', last: 'de Vries' },
  email: 'anne@voorbeeldstad.nl',
  lastSignInAt: '2026-11-20T09:00:00.000Z',
  factors: ['app'],
  dataRoles: [
    { roleId: 'ruimte', label: 'Ruimte en wonen' },
    { roleId: 'financien', label: 'Financiën' },
  ],
};
const GAST = {
  userId: '0190a1b2-0000-7000-8000-000000000002',
  name: { first: 'Gert', last: 'Gast' },
  email: 'gert@dijkstad.nl',
  lastSignInAt: null,
  factors: null,
  dataRoles: [{ roleId: 'ruimte', label: 'Ruimte en wonen' }],
};
const FINISHED = {
  id: '0190a1b2-0000-7000-8000-0000000000ff',
  reviewedByEmail: 'bea@voorbeeldstad.nl',
  completedAt: '2026-11-27T10:15:00.000Z',
  kept: 2,
  withdrawn: 1,
};

const routes = (
  <>
    <Route path="/toegangsreview" element={<AccessReviewScreen />} />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
  </>
);

/** The Users API for the review: Anne with two roles, a guest with one; a finish answers 201 or, when told, 409. */
function reviewServer(options: { outdated?: boolean } = {}) {
  let done = false;
  return fakeNetwork((url, init) => {
    if (url.pathname === '/api/users/whoami') return { status: 200, body: whoamiOf() };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/access-review') {
      const people = done ? [{ ...ANNE, dataRoles: [ANNE.dataRoles[0]] }, GAST] : [ANNE, GAST];
      const organisation = { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' };
      return { status: 200, body: { organisation, people, lastReview: done ? FINISHED : null } };
    }
    if (url.pathname === '/api/access-reviews' && init?.method === 'POST') {
      if (options.outdated) {
        const message = 'De datarollen zijn gewijzigd sinds je de review opende. Laad de review opnieuw.';
        return { status: 409, body: { error: { code: 409, id: 'review_outdated', message } } };
      }
      done = true;
      return { status: 201, body: FINISHED };
    }
    if (url.pathname === '/api/access-reviews') return { status: 200, body: done ? [FINISHED] : [] };
    return undefined;
  });
}

const finishCall = (calls: ReturnType<typeof fakeNetwork>) =>
  calls.find((call) => call.url.pathname === '/api/access-reviews' && call.init?.method === 'POST');

beforeEach(() => window.sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('AccessReviewScreen', () => {
  it('lists each person with last sign-in, second factor and a choice per role, without axe violations', async () => {
    reviewServer();
    const { container } = renderAt('/toegangsreview', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Toegangsreview' })).toBeInTheDocument();
    const anne = await screen.findByRole('region', { name: 'Anne de Vries' });
    expect(within(anne).getByText('anne@voorbeeldstad.nl')).toBeInTheDocument();
    expect(within(anne).getByText('authenticator-app')).toBeInTheDocument();
    expect(
      within(anne)
        .getAllByRole('group')
        .map((group) => group.textContent),
    ).toEqual(['Ruimte en wonen van Anne de VriesBehoudenIntrekken', 'Financiën van Anne de VriesBehoudenIntrekken']);
    const gast = screen.getByRole('region', { name: 'Gert Gast' });
    expect(within(gast).getByText('Nog nooit')).toBeInTheDocument();
    expect(within(gast).getByText('niet zichtbaar (andere thuisorganisatie)')).toBeInTheDocument();
    expect(screen.getByText('Er is nog geen review afgerond.')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('asks for every choice first, then withdraws after a confirmation and says what happened', async () => {
    const calls = reviewServer();
    renderAt('/toegangsreview', routes);
    const anne = await screen.findByRole('region', { name: 'Anne de Vries' });
    await userEvent.click(within(within(anne).getAllByRole('group')[0]!).getByRole('radio', { name: 'Intrekken' }));
    await userEvent.click(screen.getByRole('button', { name: 'Review afronden' }));
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('Kies bij elke datarol Behouden of Intrekken: nog 2 datarollen open.');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(finishCall(calls)).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Overige behouden' }));
    await userEvent.click(screen.getByRole('button', { name: 'Review afronden' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Review afronden' });
    expect(dialog).toHaveTextContent('Je behoudt 2 datarollen en trekt 1 datarol in. Het intrekken gaat direct in.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Afronden' }));
    const done = await screen.findByText('De review is afgerond: 2 datarollen behouden, 1 datarol ingetrokken.');
    await waitFor(() => expect(done.parentElement).toHaveFocus());
    expect(JSON.parse(String(finishCall(calls)?.init?.body))).toEqual({
      decisions: [
        { userId: ANNE.userId, roleId: 'ruimte', decision: 'withdraw' },
        { userId: ANNE.userId, roleId: 'financien', decision: 'keep' },
        { userId: GAST.userId, roleId: 'ruimte', decision: 'keep' },
      ],
    });
    expect(
      await screen.findByText(/door bea@voorbeeldstad.nl: 2 datarollen behouden, 1 datarol ingetrokken/),
    ).toBeInTheDocument();
    expect(window.sessionStorage.length).toBe(0);
  });

  it('keeps the choices made over a reload of the page', async () => {
    reviewServer();
    const first = renderAt('/toegangsreview', routes);
    await screen.findByRole('region', { name: 'Anne de Vries' });
    const anne = screen.getByRole('region', { name: 'Anne de Vries' });
    await userEvent.click(within(within(anne).getAllByRole('group')[1]!).getByRole('radio', { name: 'Intrekken' }));
    first.unmount();
    renderAt('/toegangsreview', routes);
    const again = await screen.findByRole('region', { name: 'Anne de Vries' });
    expect(within(within(again).getAllByRole('group')[1]!).getByRole('radio', { name: 'Intrekken' })).toBeChecked();
  });

  it('says in the dialog when the data roles changed meanwhile, and sends a member elsewhere', async () => {
    reviewServer({ outdated: true });
    renderAt('/toegangsreview', routes);
    await screen.findByRole('region', { name: 'Anne de Vries' });
    await userEvent.click(screen.getByRole('button', { name: 'Overige behouden' }));
    await userEvent.click(screen.getByRole('button', { name: 'Review afronden' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Review afronden' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Afronden' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'De datarollen zijn gewijzigd sinds je de review opende. Laad de review opnieuw.',
    );
    vi.unstubAllGlobals();

    fakeNetwork((url) =>
      url.pathname === '/api/users/whoami' ? { status: 200, body: whoamiOf({ isAdmin: false }) } : undefined,
    );
    renderAt('/toegangsreview', routes);
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });
});
