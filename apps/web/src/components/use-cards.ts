import { type RefObject, useLayoutEffect } from 'react';

/** The class of the table's region that shows every row as a card (`styles/layout.css`). */
const CARDS = 'dvp-table-scroll--cards';
/** Below this width (in rem) the rows are cards however short their contents: the phone layout. */
const NARROW_REM = 44;

/**
 * Shows the rows as cards where the table would be wider than its region, so that no row action is ever cut off or
 * needs sideways scrolling: on a phone, and wherever names, addresses, data roles or an invitation's action need more
 * room than the region has (a tablet, a laptop beside the sidebar). Decided again when the region's width or the
 * rows change, before the browser paints; the class is set on the element itself, which React leaves alone.
 */
export function useCardsWhereTableOverflows(region: RefObject<HTMLElement | null>, rows: unknown) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: new rows change the width the table needs
  useLayoutEffect(() => {
    const element = region.current;
    const table = element?.querySelector('table');
    if (!element || !table) return;
    const decide = () => {
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      element.classList.remove(CARDS);
      // As a table, it is as wide as its columns need, however narrow the region.
      const room = element.clientWidth;
      const cards = room < NARROW_REM * rem || table.getBoundingClientRect().width > room + 0.5;
      element.classList.toggle(CARDS, cards);
    };
    decide();
    if (typeof ResizeObserver !== 'function') return;
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      // Only a new width: a card layout changes the region's height, which must not start it again.
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      decide();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [region, rows]);
}
