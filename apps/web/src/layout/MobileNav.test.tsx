import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../test-support';
import { MobileNav } from './MobileNav';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ to: `/p${i}`, label: `Item ${i + 1}` }));

describe('MobileNav', () => {
  it('shows up to 4 items directly', () => {
    renderAt('/', <Route path="/" element={<MobileNav items={items(4)} />} />);
    expect(screen.getAllByRole('link')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Meer' })).toBeNull();
  });

  it('shows 3 items and Meer when there are more than 4', async () => {
    renderAt('/', <Route path="/" element={<MobileNav items={items(6)} />} />);
    expect(screen.getAllByRole('link')).toHaveLength(3);
    const more = screen.getByRole('button', { name: 'Meer' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('link')).toHaveLength(6);
  });
});
