import { useState } from 'react';
import { NavLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
}

const MAX_ITEMS = 4;

/**
 * The navigation under the medium breakpoint: at most 4 items, else 3 and 'Meer'. It stands under the
 * sidebar's block, above the content, where nothing scrolls under it; the items share its width in columns, two by two
 * where four do not fit on one line (a phone), so that every item, 'Uitloggen' too, is on the screen at every width.
 */
export function MobileNav({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const direct = items.length <= MAX_ITEMS ? items : items.slice(0, MAX_ITEMS - 1);
  const more = items.length <= MAX_ITEMS ? [] : items.slice(MAX_ITEMS - 1);
  const count = direct.length + (more.length > 0 ? 1 : 0);
  return (
    <nav className={`dvp-mobile-nav dvp-mobile-nav--${count}`} aria-label="Menu">
      <ul className="dvp-mobile-nav__items">
        {direct.map((item) => (
          <li key={item.to}>
            <NavLink className="dvp-mobile-nav__item" to={item.to} end>
              {item.label}
            </NavLink>
          </li>
        ))}
        {more.length > 0 && (
          <li className="dvp-mobile-nav__more-item">
            <button
              type="button"
              className="dvp-mobile-nav__item"
              aria-expanded={open}
              aria-controls="dvp-meer"
              onClick={() => setOpen((o) => !o)}
            >
              Meer
            </button>
            {open && (
              <ul id="dvp-meer" className="dvp-mobile-nav__more">
                {more.map((item) => (
                  <li key={item.to}>
                    <NavLink className="dvp-mobile-nav__item" to={item.to} end onClick={() => setOpen(false)}>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            )}
          </li>
        )}
      </ul>
    </nav>
  );
}
