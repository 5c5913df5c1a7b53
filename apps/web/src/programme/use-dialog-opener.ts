import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/**
 * Which dialog is open, and the focus back on what opened it once it is gone (its focus trap included), or on
 * `fallback` when that is no longer there (a row that went away). `follow` opens the next dialog of the same errand
 * (the secret after the form that made it): the focus returns to what opened the first.
 */
export function useDialogOpener<T>(fallback: RefObject<HTMLElement | null>) {
  const [open, setOpen] = useState<T>();
  const opener = useRef<HTMLElement | null>(null);
  const returnFocus = useRef(false);
  const show = useCallback((next: T) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(next);
  }, []);
  const follow = useCallback((next: T) => setOpen(next), []);
  const close = useCallback(() => {
    returnFocus.current = true;
    setOpen(undefined);
  }, []);
  useEffect(() => {
    if (open || !returnFocus.current) return;
    returnFocus.current = false;
    const frame = window.requestAnimationFrame(() =>
      (opener.current?.isConnected ? opener.current : fallback.current)?.focus(),
    );
    return () => window.cancelAnimationFrame(frame);
  }, [open, fallback]);
  return { open, show, follow, close };
}
