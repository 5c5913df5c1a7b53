import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import AccessibilityStatementScreen from './AccessibilityStatementScreen';

const show = () =>
  renderAt('/toegankelijkheid', <Route path="/toegankelijkheid" element={<AccessibilityStatementScreen />} />);
const config = (values: Record<string, unknown>) =>
  fakeNetwork((url) =>
    url.pathname === '/api/config'
      ? {
          status: 200,
          body: { title: 'Datavoorzieningen Portaal', supportEmail: null, feedbackEmail: null, ...values },
        }
      : undefined,
  );

// The heading breaks at a soft hyphen on a phone (a word of 27 letters).
const STATEMENT = /^Toegankelijkheids\u00ad?verklaring$/;

afterEach(() => vi.unstubAllGlobals());

describe('AccessibilityStatementScreen', () => {
  it('shows the draft statement with its status, known problems and the feedback address to write to', async () => {
    config({ feedbackEmail: 'feedback@voorbeeldstad.nl', supportEmail: 'support@voorbeeldstad.nl' });
    const { container } = show();
    expect(await screen.findByRole('heading', { level: 1, name: STATEMENT })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Status' })).toBeInTheDocument();
    expect(screen.getByText(/eerste maatregelen genomen/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Wat nog niet goed is' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'feedback@voorbeeldstad.nl' })).toHaveAttribute(
      'href',
      'mailto:feedback@voorbeeldstad.nl',
    );
    expect(screen.getAllByText(/Datavoorzieningen Portaal/).length).toBeGreaterThan(0);
    expect(container.innerHTML).not.toContain('{{');
    expect(container.innerHTML).not.toContain('ACCESSIBILITY_STATEMENT_URL');
    expect(document.title).toBe('Toegankelijkheidsverklaring – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('falls back to the support address, and to the helpdesk in words when no address is set', async () => {
    config({ supportEmail: 'support@voorbeeldstad.nl' });
    const first = show();
    expect(await screen.findByRole('link', { name: 'support@voorbeeldstad.nl' })).toBeInTheDocument();
    first.unmount();
    vi.unstubAllGlobals();
    config({});
    show();
    expect(await screen.findByText(/mail of bel de helpdesk van je gemeente/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
  });

  it('fills in configured values as text, never as markup', async () => {
    config({ title: '<img src=x onerror=alert(1)>', feedbackEmail: 'x@y.nl"><script>alert(1)</script>' });
    const { container } = show();
    await screen.findByRole('heading', { level: 1, name: STATEMENT });
    expect(container.querySelector('img, script')).toBeNull();
    expect(screen.getAllByText(/<img src=x onerror=alert\(1\)>/).length).toBeGreaterThan(0);
    expect(screen.getByText(/mail of bel de helpdesk van je gemeente/)).toBeInTheDocument();
  });
});
