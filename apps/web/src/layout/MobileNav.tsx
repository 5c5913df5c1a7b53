import { useState } from 'react';
import { NavLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
}

const MAX_ITEMS = 4;

/** The navigation under the medium breakpoint (spec §9): at most 4 items, else 3 and 'Meer'. */
export function MobileNav({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const direct = items.length <= MAX_ITEMS ? items : items.slice(0, MAX_ITEMS - 1);
  const more = items.length <= MAX_ITEMS ? [] : items.slice(MAX_ITEMS - 1);
  return (
    <nav className="dvp-mobile-nav" aria-label="Menu onderaan">
      <ul>
        {direct.map((item) => (
          <li key={item.to}>
            <NavLink className="utrecht-link" to={item.to} end>
              {item.label}
            </NavLink>
          </li>
        ))}
        {more.length > 0 && (
          <li>
            <button
              type="button"
              className="utrecht-button utrecht-button--subtle"
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
                    <NavLink className="utrecht-link" to={item.to} end onClick={() => setOpen(false)}>
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
