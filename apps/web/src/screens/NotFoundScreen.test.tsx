import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import NotFoundScreen from './NotFoundScreen';

const routes = (
  <>
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
    <Route path="*" element={<NotFoundScreen />} />
  </>
);

afterEach(() => vi.unstubAllGlobals());

describe('NotFoundScreen', () => {
  it('answers an unknown address with a heading, an explanation, a link to the data services, a title', async () => {
    const calls = fakeNetwork(() => undefined);
    const { container } = renderAt('/bestaat/niet?x=1', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' })).toBeInTheDocument();
    expect(
      screen.getByText('Deze pagina bestaat niet. Controleer het adres of ga verder naar je datavoorzieningen.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Naar Datavoorzieningen' })).toHaveAttribute('href', '/permissies');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'inhoud');
    expect(document.title).toBe('Pagina niet gevonden – Datavoorzieningen Portaal');
    expect(calls).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('leads to the data services page when the link is followed', async () => {
    fakeNetwork(() => undefined);
    renderAt('/onbekend', routes);
    await userEvent.click(screen.getByRole('link', { name: 'Naar Datavoorzieningen' }));
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pagina niet gevonden' })).toBeNull();
  });
});
