/** Users per page of the overview: enough to scan, few enough that a page of row actions renders at once. */
export const PAGE_SIZE = 25;

const number = new Intl.NumberFormat('nl-NL');

interface PaginationProps {
  /** The page shown, from 0. */
  page: number;
  /** How many users the sort and search leave, over all pages. */
  total: number;
  onPage(page: number): void;
}

/**
 * 'Vorige pagina' and 'Volgende pagina' under the overview's table, shown only when there is more than one page.
 * The focus stays on the button pressed: at the first or last page it is only marked disabled (`aria-disabled`), as a
 * truly disabled button would drop the focus to the page; the range shown is announced (a status).
 */
export function Pagination({ page, total, onPage }: PaginationProps) {
  const pages = Math.ceil(total / PAGE_SIZE);
  if (pages <= 1) return null;
  const first = page * PAGE_SIZE + 1;
  const last = Math.min(total, first + PAGE_SIZE - 1);
  const step = (to: number, label: string) => {
    const off = to < 0 || to >= pages;
    return (
      <button
        type="button"
        className={`utrecht-button utrecht-button--secondary-action${off ? ' utrecht-button--disabled' : ''}`}
        aria-disabled={off || undefined}
        onClick={() => !off && onPage(to)}
      >
        {label}
      </button>
    );
  };
  return (
    <nav className="dvp-pagination" aria-label="Pagina's met gebruikers">
      {step(page - 1, 'Vorige pagina')}
      <p className="utrecht-paragraph dvp-pagination__range" role="status">
        Gebruikers {number.format(first)}–{number.format(last)} van {number.format(total)} (pagina{' '}
        {number.format(page + 1)} van {number.format(pages)})
      </p>
      {step(page + 1, 'Volgende pagina')}
    </nav>
  );
}
