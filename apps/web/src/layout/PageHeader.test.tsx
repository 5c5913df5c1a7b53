import { screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { PageHeader } from './PageHeader';

const show = () => renderAt('/login', <Route path="/login" element={<PageHeader />} />);
afterEach(() => vi.unstubAllGlobals());

describe('PageHeader', () => {
  it('names the programme on every page, with the way past it to the content', async () => {
    fakeNetwork(() => ({
      status: 200,
      body: { title: 'Datavoorzieningen Utrecht', description: 'Data voor de stad' },
    }));
    const { container } = show();
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Datavoorzieningen Utrecht')).toBeInTheDocument();
    expect(within(header).getByText('Data voor de stad')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Naar de inhoud' })).toHaveAttribute('href', '#inhoud');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('uses the default name and description until the settings arrive, or when they cannot be read', () => {
    fakeNetwork(() => ({ status: 500, body: {} }));
    show();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Datavoorzieningen VNG')).toBeInTheDocument();
    expect(within(header).getByText('Datavoorziening VNG Realisatie')).toBeInTheDocument();
  });
});
