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

  it("links the portal's draft statement when the organisation has set none, and no privacy link then", async () => {
    fakeNetwork(() => ({ status: 200, body: { accessibilityStatementUrl: null, privacyStatementUrl: null } }));
    const { container } = show();
    const footer = await screen.findByRole('contentinfo');
    expect(screen.getByRole('link', { name: 'Toegankelijkheid' })).toHaveAttribute('href', '/toegankelijkheid');
    expect(screen.queryByRole('link', { name: 'Privacy' })).toBeNull();
    expect(footer).toContainElement(screen.getByRole('link', { name: 'Toegankelijkheid' }));
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows nothing while the configuration cannot be read', async () => {
    const calls = fakeNetwork(() => ({
      status: 500,
      body: { error: { code: 500, message: 'Internal Server Error' } },
    }));
    show();
    await waitFor(() => expect(calls.length).toBe(1));
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});
