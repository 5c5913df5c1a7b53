import { type ReactNode, useRef } from 'react';
import { useCardsWhereTableOverflows } from './use-cards';

interface CardTableProps {
  /** The name of the region that holds the table. */
  label: string;
  /** The table's caption, for screen readers. */
  caption: string;
  /** The rows shown are the previous ones while new ones load. */
  busy?: boolean;
  /** What the rows are made of: a new value decides again between table and cards. */
  rows: unknown;
  /** The head and body. */
  children: ReactNode;
}

/**
 * A table in a focusable region of its own, whose rows become cards where its columns do not fit (a phone, a tablet,
 * a laptop beside the sidebar; `use-cards.ts`, `styles/layout.css`): the overview's people, 'Logboek'.
 */
export function CardTable({ label, caption, busy, rows, children }: CardTableProps) {
  const region = useRef<HTMLDivElement>(null);
  useCardsWhereTableOverflows(region, rows);
  return (
    // biome-ignore lint/a11y: a focusable region lets keyboard users scroll a table wider than the screen
    <div ref={region} className="dvp-table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="dvp-table" aria-busy={busy || undefined}>
        <caption className="dvp-visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
