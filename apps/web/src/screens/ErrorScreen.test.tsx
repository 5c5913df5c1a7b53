import { act, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import ErrorScreen from './ErrorScreen';

const routes = (
  <>
    <Route path="/error" element={<ErrorScreen />} />
    <Route path="/" element={<p>Start-pagina</p>} />
  </>
);

/** The stored error report of docs/kratos-compatibility.md: the herodot error object itself under `error`. */
const report = (id: string) => ({
  id,
  error: {
    id: 'security_csrf_violation',
    code: 403,
    status: 'Forbidden',
    reason: 'Please retry the flow and optionally clear your cookies.',
    message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
  },
  created_at: '2026-03-01T12:00:00Z',
  updated_at: '2026-03-01T12:00:00Z',
});

function network(
  errors: (id: string) => { status: number; body?: unknown },
  config: Record<string, unknown> = { supportEmail: 'hulp@voorbeeldstad.nl' },
) {
  return fakeNetwork((url) => {
    if (url.pathname === '/api/config') return { status: 200, body: config };
    if (url.pathname === '/self-service/errors') return errors(url.searchParams.get('id') ?? '');
    return undefined;
  });
}

/** Lets pending answers and the effects after them run, so that a navigation that should not happen would have. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** Text of the page in English words that is not marked as English: what a Dutch screen reader would garble. */
function englishOutsideLangEn(root: Element): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (/\b(the|rejected|request|error|please|internal|occurred)\b/i.test(text)) {
      if (!node.parentElement?.closest('[lang^="en"]')) found.push(text);
    }
  }
  return found;
}

afterEach(() => vi.unstubAllGlobals());

describe('ErrorScreen', () => {
  it('fetches the ?id= error report, says in Dutch what went wrong, the support address, a link to /', async () => {
    const calls = network((id) => ({ status: 200, body: report(id) }));
    const { container } = renderAt('/error?id=9f1c-err', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Er is een fout opgetreden' })).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(await within(alert).findByRole('link', { name: 'hulp@voorbeeldstad.nl' })).toHaveAttribute(
      'href',
      'mailto:hulp@voorbeeldstad.nl',
    );
    expect(alert.querySelector('p')).toHaveTextContent(
      /^Er is een fout opgetreden\. Blijft dit aanhouden, mail dan naar hulp@voorbeeldstad\.nl\.$/,
    );
    // What went wrong in Dutch; the provider's English message only as a detail for the helpdesk, marked as English
    // (WCAG 3.1.2).
    expect(
      await within(alert).findByText(
        'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander venster geopend.',
      ),
    ).toBeInTheDocument();
    const english = within(alert).getByText('the request was rejected to protect you from Cross-Site-Request-Forgery');
    expect(english).toHaveAttribute('lang', 'en');
    expect(english.parentElement).toHaveTextContent(
      /^Technische melding voor de helpdesk \(in het Engels\): the request was rejected/,
    );
    expect(englishOutsideLangEn(container)).toEqual([]);
    expect(screen.getByRole('link', { name: 'Naar login' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Er is een fout opgetreden – Datavoorzieningen Portaal');
    const fetched = calls.filter((call) => call.url.pathname === '/self-service/errors');
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.url.searchParams.get('id')).toBe('9f1c-err');
    expect(fetched[0]!.init?.method ?? 'GET').toBe('GET');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('names the helpdesk, not an address-less mail, when no support address is configured', async () => {
    network((id) => ({ status: 200, body: report(id) }), { supportEmail: null });
    const { container } = renderAt('/error?id=e1', routes);
    const alert = screen.getByRole('alert');
    await waitFor(() =>
      expect(alert.querySelector('p')).toHaveTextContent(
        'Er is een fout opgetreden. Blijft dit aanhouden, neem dan contact op met de helpdesk van je organisatie.',
      ),
    );
    await within(alert).findByText(/^Technische melding/);
    expect(within(alert).queryByRole('link')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('explains a server error in Dutch, with the English message marked as English', async () => {
    network((id) => ({
      status: 200,
      body: {
        id,
        error: {
          code: 500,
          status: 'Internal Server Error',
          reason: 'This is a stub error.',
          message: 'An internal server error occurred, please contact the system administrator',
        },
      },
    }));
    const { container } = renderAt('/error?id=stub:500', routes);
    const alert = screen.getByRole('alert');
    expect(
      await within(alert).findByText('Er ging iets mis in het portaal. Dat ligt niet aan jou.'),
    ).toBeInTheDocument();
    expect(
      within(alert).getByText('An internal server error occurred, please contact the system administrator'),
    ).toHaveAttribute('lang', 'en');
    expect(englishOutsideLangEn(container)).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('asks for no report and shows no provider message when the address has no id', async () => {
    const calls = network(() => ({ status: 200, body: report('x') }));
    const { container } = renderAt('/error', routes);
    await screen.findByRole('link', { name: 'hulp@voorbeeldstad.nl' });
    expect(calls.some((call) => call.url.pathname === '/self-service/errors')).toBe(false);
    expect(screen.queryByText(/^Technische melding/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Naar login' })).toHaveAttribute('href', '/');
    expect(await axeViolations(container)).toEqual([]);
  });

  it.each([
    [404, { error: { code: 404, status: 'Not Found', message: 'Unable to locate the resource' } }],
    [403, { error: { code: 403, status: 'Forbidden', message: 'The requested action was forbidden' } }],
    [
      410,
      {
        error: {
          code: 410,
          status: 'Gone',
          message: 'The requested resource is no longer available because it has expired or is otherwise invalid.',
        },
      },
    ],
  ])('goes back to / when the error report answers %i', async (status, body) => {
    network(() => ({ status, body }));
    renderAt('/error?id=onbekend', routes);
    expect(await screen.findByText('Start-pagina')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Er is een fout opgetreden' })).toBeNull();
  });

  it('stays on the error page with the general text when the report cannot be read for another reason', async () => {
    const calls = network(() => ({
      status: 500,
      body: {
        error: {
          code: 500,
          status: 'Internal Server Error',
          message: 'An internal server error occurred, please contact the system administrator',
        },
      },
    }));
    const { container } = renderAt('/error?id=stuk', routes);
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/self-service/errors')).toBe(true));
    await screen.findByRole('link', { name: 'hulp@voorbeeldstad.nl' });
    await settle();
    expect(screen.getByRole('heading', { name: 'Er is een fout opgetreden' })).toBeInTheDocument();
    expect(screen.queryByText(/^Technische melding/)).toBeNull();
    expect(screen.queryByText('Start-pagina')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });
});
