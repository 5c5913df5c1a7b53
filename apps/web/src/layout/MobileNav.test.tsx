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
    // Four columns where they fit, two by two on a phone (styles/layout.css); the current page is marked.
    expect(screen.getByRole('navigation', { name: 'Menu' })).toHaveClass('dvp-mobile-nav--4');
  });

  it('marks the page the person is on', () => {
    renderAt('/p1', <Route path="/p1" element={<MobileNav items={items(3)} />} />);
    expect(screen.getByRole('link', { name: 'Item 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Item 1' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('navigation', { name: 'Menu' })).toHaveClass('dvp-mobile-nav--3');
  });

  it('shows 3 items and Meer when there are more than 4', async () => {
    renderAt('/', <Route path="/" element={<MobileNav items={items(6)} />} />);
    expect(screen.getAllByRole('link')).toHaveLength(3);
    expect(screen.getByRole('navigation', { name: 'Menu' })).toHaveClass('dvp-mobile-nav--4');
    const more = screen.getByRole('button', { name: 'Meer' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('link')).toHaveLength(6);
  });
});
