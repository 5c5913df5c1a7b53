import { useEffect, type RefObject } from 'react';

/** The room kept between the focused control and the toasts when the page scrolls it clear. */
const GAP = 16;

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Scrolls the focused control out from under the toasts (WCAG 2.4.11): the toasts stand over the bottom of the
 * window, where after a save the row button that opened the dialog may be. The page's scroll padding keeps the toasts'
 * height free at the bottom, so that the browser's own scrolling to a focused control (Tab) also stops above them,
 * and `room` (a block after the page) lets the page scroll that far even at its end. Returns whether it scrolled.
 */
export function keepFocusClear(list: HTMLElement, room: HTMLElement): boolean {
  const toasts = [...list.children].map((toast) => toast.getBoundingClientRect()).filter((box) => box.height > 0);
  const height = toasts.length > 0 ? window.innerHeight - Math.min(...toasts.map((box) => box.top)) + GAP : 0;
  room.style.blockSize = `${height}px`;
  document.documentElement.style.scrollPaddingBlockEnd = height > 0 ? `${height}px` : '';
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body || list.contains(focused)) return false;
  const box = focused.getBoundingClientRect();
  if (!toasts.some((toast) => overlaps(box, toast))) return false;
  focused.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  return true;
}

/** Keeps the focused control clear of the toasts in `list` whenever they change size or the focus moves. */
export function useKeepFocusClear(list: RefObject<HTMLElement | null>, room: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const check = () => {
      if (list.current && room.current) keepFocusClear(list.current, room.current);
    };
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(check) : undefined;
    if (list.current) observer?.observe(list.current);
    document.addEventListener('focusin', check);
    window.addEventListener('resize', check);
    return () => {
      observer?.disconnect();
      document.removeEventListener('focusin', check);
      window.removeEventListener('resize', check);
      document.documentElement.style.scrollPaddingBlockEnd = '';
    };
  }, [list, room]);
}
