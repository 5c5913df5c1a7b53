/** How long the page may still grow above the element (sections that load) before it is left where it is. */
const SETTLE_MS = 3_000;

/**
 * Focuses `element` and scrolls it to the top of the window; while the page above it still grows (sections that
 * load), scrolls it back into view, until the person scrolls, types, taps or moves the focus, or SETTLE_MS pass.
 * Returns the way to stop early.
 */
export function keepInView(element: HTMLElement): () => void {
  element.focus({ preventScroll: true });
  // jsdom, in the component tests, has neither of the two.
  const place = () => element.scrollIntoView?.({ block: 'start' });
  place();
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  let last = element.getBoundingClientRect().top;
  const observer = new ResizeObserver(() => {
    if (document.activeElement !== element) return stop();
    const top = element.getBoundingClientRect().top;
    if (top !== last) place();
    last = element.getBoundingClientRect().top;
  });
  observer.observe(document.body);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const timer = window.setTimeout(stop, SETTLE_MS);
  for (const type of events) window.addEventListener(type, stop, { capture: true, passive: true });
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of events) window.removeEventListener(type, stop, { capture: true });
  }
  return stop;
}
