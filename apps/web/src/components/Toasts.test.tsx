import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { ToastProvider, useToast } from './Toasts';

function Trigger() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast({ title: 'Gebruiker verwijderd.', variant: 'success' })}>
      toon
    </button>
  );
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toasts', () => {
  it('announce politely, fade 300 ms before 5 s and disappear at 5 s', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'toon' }));
    expect(screen.getByRole('list', { name: 'Meldingen' })).toHaveAttribute('aria-live', 'polite');
    const toast = screen.getByText('Gebruiker verwijderd.').closest('li')!;
    act(() => vi.advanceTimersByTime(4_699));
    expect(toast).not.toHaveClass('dvp-toast--fading');
    act(() => vi.advanceTimersByTime(2));
    expect(toast).toHaveClass('dvp-toast--fading');
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByText('Gebruiker verwijderd.')).toBeNull();
  });

  it('pause while the pointer is on them and resume after', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'toon' }));
    const toast = screen.getByText('Gebruiker verwijderd.').closest('li')!;
    act(() => vi.advanceTimersByTime(2_000));
    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Gebruiker verwijderd.')).toBeInTheDocument();
    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(3_001));
    expect(screen.queryByText('Gebruiker verwijderd.')).toBeNull();
  });
});

function Triggers() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast({ title: 'Gebruiker verwijderd.', variant: 'success' })}>
        goed
      </button>
      <button type="button" onClick={() => toast({ title: 'Je kan momenteel niet inloggen', variant: 'error' })}>
        fout
      </button>
    </>
  );
}

const toastOf = (title: string) => screen.getByText(title).closest('li')!;

describe('toasts (WCAG 2.2.1 timing adjustable)', () => {
  it('keep an error until it is closed with its Sluiten, a button that names the message', async () => {
    const { container } = render(
      <ToastProvider>
        <Triggers />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'fout' }));
    act(() => vi.advanceTimersByTime(10 * 60_000));
    const toast = toastOf('Je kan momenteel niet inloggen');
    expect(toast).not.toHaveClass('dvp-toast--fading');
    const close = within(toast).getByRole('button', { name: 'Sluiten' });
    expect(close).toHaveAccessibleDescription('Je kan momenteel niet inloggen');
    vi.useRealTimers();
    expect(await axeViolations(container)).toEqual([]);
    // A native button: Enter and Space press it (the browser journey presses Enter).
    expect(close.tagName).toBe('BUTTON');
    expect(close).toHaveAttribute('type', 'button');
    fireEvent.click(close);
    expect(screen.queryByText('Je kan momenteel niet inloggen')).toBeNull();
  });

  it('give every toast a Sluiten, and pause a success while the focus is in it', async () => {
    render(
      <ToastProvider>
        <Triggers />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'goed' }));
    fireEvent.click(screen.getByRole('button', { name: 'fout' }));
    expect(
      within(screen.getByRole('list', { name: 'Meldingen' })).getAllByRole('button', { name: 'Sluiten' }),
    ).toHaveLength(2);
    const success = toastOf('Gebruiker verwijderd.');
    act(() => vi.advanceTimersByTime(2_000));
    act(() => within(success).getByRole('button', { name: 'Sluiten' }).focus());
    act(() => vi.advanceTimersByTime(60_000));
    expect(success).toBeInTheDocument();
    expect(success).not.toHaveClass('dvp-toast--fading');
    // The focus leaves: the remaining 3 s run again.
    act(() => screen.getByRole('button', { name: 'goed' }).focus());
    act(() => vi.advanceTimersByTime(2_999));
    expect(screen.getByText('Gebruiker verwijderd.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2));
    expect(screen.queryByText('Gebruiker verwijderd.')).toBeNull();
    expect(screen.getByText('Je kan momenteel niet inloggen')).toBeInTheDocument();
  });

  it('keep the time of a toast when another one comes', async () => {
    render(
      <ToastProvider>
        <Triggers />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'goed' }));
    act(() => vi.advanceTimersByTime(4_000));
    fireEvent.click(screen.getByRole('button', { name: 'fout' }));
    act(() => vi.advanceTimersByTime(1_001));
    expect(screen.queryByText('Gebruiker verwijderd.')).toBeNull();
  });

  it('move the focus from a closed toast to the next one’s Sluiten, after the last to the page before', async () => {
    render(
      <ToastProvider>
        <Triggers />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'fout' }));
    fireEvent.click(screen.getByRole('button', { name: 'fout' }));
    const [first, second] = within(screen.getByRole('list', { name: 'Meldingen' })).getAllByRole('button', {
      name: 'Sluiten',
    });
    act(() => first!.focus());
    fireEvent.click(first!);
    expect(second).toHaveFocus();
    fireEvent.click(second!);
    expect(screen.queryByRole('button', { name: 'Sluiten' })).toBeNull();
    // The last control before the toasts.
    expect(screen.getByRole('button', { name: 'fout' })).toHaveFocus();
  });
});
