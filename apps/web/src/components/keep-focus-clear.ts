import { useEffect, type RefObject } from 'react';

/** The room kept between the focused control and the toasts when the page scrolls it clear. */
const GAP = 16;

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The boxes of the toasts shown in `list`. */
const toastBoxes = (list: HTMLElement) =>
  [...list.children].map((toast) => toast.getBoundingClientRect()).filter((box) => box.height > 0);

/**
 * Makes `room` (a block after the page) as high as the toasts, so that the page can scroll a control at its very end
 * clear of them. It shrinks only as far as the page reaches below the window: where the page is scrolled into the
 * room, a toast that goes would otherwise pull the page down under the pointer, and a click aimed as it goes would
 * land beside its button. The rest goes as the page is scrolled back.
 */
export function fitToastRoom(list: HTMLElement, room: HTMLElement) {
  const toasts = toastBoxes(list);
  const needed = toasts.length > 0 ? window.innerHeight - Math.min(...toasts.map((box) => box.top)) + GAP : 0;
  const page = document.documentElement;
  const below = Math.max(0, page.scrollHeight - window.scrollY - window.innerHeight);
  const kept = Math.max(0, (Number.parseFloat(room.style.blockSize) || 0) - below);
  room.style.blockSize = `${Math.max(needed, kept)}px`;
  page.style.scrollPaddingBlockEnd = needed > 0 ? `${needed}px` : '';
  return toasts;
}

/**
 * Scrolls the focused control out from under the toasts (WCAG 2.4.11): the toasts stand over the bottom of the
 * window, where after a save the row button that opened the dialog may be. The page's scroll padding keeps the toasts'
 * height free at the bottom, so that the browser's own scrolling to a focused control (Tab) also stops above them.
 * Returns whether it scrolled.
 */
export function keepFocusClear(list: HTMLElement, room: HTMLElement): boolean {
  const toasts = fitToastRoom(list, room);
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body || list.contains(focused)) return false;
  const box = focused.getBoundingClientRect();
  if (!toasts.some((toast) => overlaps(box, toast))) return false;
  focused.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  return true;
}

/**
 * Keeps the focused control clear of the toasts in `list` whenever they change size or the focus moves, and lets the
 * room they leave go as the page is scrolled back from it.
 */
export function useKeepFocusClear(list: RefObject<HTMLElement | null>, room: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const check = () => {
      if (list.current && room.current) keepFocusClear(list.current, room.current);
    };
    // Scrolling only shrinks the room left behind: pulling the page back to the focus would fight the person.
    const shrink = () => {
      if (list.current && room.current && room.current.style.blockSize !== '0px')
        fitToastRoom(list.current, room.current);
    };
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(check) : undefined;
    if (list.current) observer?.observe(list.current);
    document.addEventListener('focusin', check);
    window.addEventListener('resize', check);
    window.addEventListener('scroll', shrink, { passive: true });
    return () => {
      observer?.disconnect();
      document.removeEventListener('focusin', check);
      window.removeEventListener('resize', check);
      window.removeEventListener('scroll', shrink);
      document.documentElement.style.scrollPaddingBlockEnd = '';
    };
  }, [list, room]);
}
