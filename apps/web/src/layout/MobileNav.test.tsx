import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../test-axe';
import { renderAt } from '../test-support';
import { MobileNav } from './MobileNav';

const menu = (
  <MobileNav>
    <nav aria-label="Hoofdmenu">
      <Link to="/p2">Naar p2</Link>
    </nav>
  </MobileNav>
);
const routes = (
  <>
    <Route path="/p1" element={menu} />
    <Route path="/p2" element={menu} />
  </>
);
const panel = () => document.getElementById('dvp-menu')!;

describe('MobileNav', () => {
  it("opens and closes what it holds with the 'Menu' button, which says whether it is open", async () => {
    const { container } = renderAt('/p1', routes);
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'dvp-menu');
    expect(panel()).not.toHaveClass('dvp-menu--open');
    expect(panel()).toContainElement(screen.getByRole('navigation', { name: 'Hoofdmenu' }));
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel()).toHaveClass('dvp-menu--open');
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on a new page', async () => {
    renderAt('/p1', routes);
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(screen.getByRole('link', { name: 'Naar p2' }));
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on Escape and gives the focus back to the button', async () => {
    renderAt('/p1', routes);
    const button = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(button);
    screen.getByRole('link', { name: 'Naar p2' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    // Also right after opening it, the focus still on the button.
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
