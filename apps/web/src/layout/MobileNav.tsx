import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';

const PANEL_ID = 'dvp-menu';

/**
 * The sidebar's menu and help under the medium breakpoint: a 'Menu' button that opens them as a list of full-width
 * links under the person's name, so that the screen's content starts near the top of a phone. From the medium
 * breakpoint up the button is hidden and `children` always show (styles/layout.css). A new page closes the menu;
 * Escape (on the button or in the menu) closes it and gives the focus back to the button.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every change of page is the point.
  useEffect(() => setOpen(false), [pathname]);

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    document.getElementById(`${PANEL_ID}-knop`)?.focus();
  }

  return (
    <>
      <button
        id={`${PANEL_ID}-knop`}
        type="button"
        className="utrecht-button utrecht-button--secondary-action dvp-menu-toggle"
        aria-expanded={open}
        aria-controls={PANEL_ID}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={closeOnEscape}
      >
        Menu
      </button>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape from anywhere inside the open menu closes it. */}
      <div id={PANEL_ID} className={`dvp-menu${open ? ' dvp-menu--open' : ''}`} onKeyDown={closeOnEscape}>
        {children}
      </div>
    </>
  );
}
