import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
