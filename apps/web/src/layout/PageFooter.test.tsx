import { screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { PageFooter } from './PageFooter';

const show = () => renderAt('/login', <Route path="/login" element={<PageFooter />} />);
afterEach(() => vi.unstubAllGlobals());

describe('PageFooter', () => {
  it('links the accessibility and privacy statements the organisation has set', async () => {
    fakeNetwork(() => ({
      status: 200,
      body: {
        accessibilityStatementUrl: 'https://www.voorbeeldstad.nl/toegankelijkheid',
        privacyStatementUrl: 'https://www.voorbeeldstad.nl/privacy',
      },
    }));
    const { container } = show();
    const footer = await screen.findByRole('contentinfo');
    expect(screen.getByRole('link', { name: 'Toegankelijkheid' })).toHaveAttribute(
      'href',
      'https://www.voorbeeldstad.nl/toegankelijkheid',
    );
    expect(screen.getByRole('link', { name: 'Privacy' })).toHaveAttribute(
      'href',
      'https://www.voorbeeldstad.nl/privacy',
    );
    expect(footer).toContainElement(screen.getByRole('link', { name: 'Privacy' }));
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows only what is set, and nothing when neither is', async () => {
    const calls = fakeNetwork(() => ({
      status: 200,
      body: { accessibilityStatementUrl: null, privacyStatementUrl: 'https://www.voorbeeldstad.nl/privacy' },
    }));
    const { unmount } = show();
    await screen.findByRole('link', { name: 'Privacy' });
    expect(screen.queryByRole('link', { name: 'Toegankelijkheid' })).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    const again = fakeNetwork(() => ({
      status: 200,
      body: { accessibilityStatementUrl: null, privacyStatementUrl: null },
    }));
    show();
    await waitFor(() => expect(again.length).toBe(1));
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(calls.length).toBe(1);
  });
});
