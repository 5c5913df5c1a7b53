import { render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCardsWhereTableOverflows } from './use-cards';

/** A region with a table, as UsersTable renders it; jsdom has no layout, so the widths are given. */
function Region({ rows }: { rows: string[] }) {
  const region = useRef<HTMLDivElement>(null);
  useCardsWhereTableOverflows(region, rows);
  return (
    <div ref={region} className="dvp-table-scroll" data-testid="region">
      <table>
        <tbody>
          {rows.map((row) => (
            <tr key={row}>
              <td>{row}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Lays out every region `room` px wide and every table `needed` px wide. */
function widths(room: number, needed: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(room);
  vi.spyOn(HTMLTableElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ width: needed, height: 100 }),
  );
}

afterEach(() => vi.restoreAllMocks());

describe('useCardsWhereTableOverflows', () => {
  it('keeps the table where its columns fit the region', () => {
    widths(1100, 950);
    const { getByTestId } = render(<Region rows={['Jan']} />);
    expect(getByTestId('region')).not.toHaveClass('dvp-table-scroll--cards');
  });

  it('shows cards where the table would be wider than the region, beside the sidebar too', () => {
    widths(736, 949);
    const { getByTestId } = render(<Region rows={['Anne-Marie van den Berg-Oudshoorn']} />);
    expect(getByTestId('region')).toHaveClass('dvp-table-scroll dvp-table-scroll--cards');
  });

  it('shows cards on a phone however short the rows, and decides again when the rows change', () => {
    widths(343, 300);
    const { getByTestId, rerender } = render(<Region rows={['Jan']} />);
    expect(getByTestId('region')).toHaveClass('dvp-table-scroll--cards');
    widths(1100, 950);
    rerender(<Region rows={['Jan', 'Piet']} />);
    expect(getByTestId('region')).not.toHaveClass('dvp-table-scroll--cards');
  });
});
