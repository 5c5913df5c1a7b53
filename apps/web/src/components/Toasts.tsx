import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type ReactNode,
} from 'react';
import { useKeepFocusClear } from './keep-focus-clear';

interface Toast {
  id: number;
  title: string;
  body?: string;
  variant: 'success' | 'error';
}

const VISIBLE_MS = 5_000;
const FADE_MS = 300;

const ToastContext = createContext<(toast: Omit<Toast, 'id'>) => void>(() => {});
export const useToast = () => useContext(ToastContext);

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]';

/**
 * Where the focus goes when the toast that has it is closed: the 'Sluiten' of the toast after it or before it, or
 * else the last control of the page before the toasts, so that the focus never drops to the page.
 */
function focusAfterClosing(item: HTMLElement) {
  const list = item.parentElement;
  const sibling = (item.nextElementSibling ?? item.previousElementSibling) as HTMLElement | null;
  const next = sibling?.querySelector<HTMLElement>('button');
  if (next) return next.focus();
  if (!list) return;
  const before = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      // Shown (where the browser can tell).
      (typeof element.checkVisibility !== 'function' || element.checkVisibility()) &&
      list.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING,
  );
  before.at(-1)?.focus();
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone(): void }) {
  const titleId = useId();
  // An error stays until it is closed (WCAG 2.2.1): only a success goes by itself.
  const timed = toast.variant === 'success';
  const [fading, setFading] = useState(false);
  const remaining = useRef(VISIBLE_MS);
  const startedAt = useRef(Date.now());
  const timers = useRef<number[]>([]);
  const hovered = useRef(false);
  const focused = useRef(false);
  // The latest `onDone`, so that a new toast in the list does not restart this one's time.
  const done = useRef(onDone);
  done.current = onDone;
  const start = useCallback(() => {
    if (!timed || hovered.current || focused.current) return;
    timers.current.forEach(clearTimeout);
    startedAt.current = Date.now();
    timers.current = [
      window.setTimeout(() => setFading(true), Math.max(0, remaining.current - FADE_MS)),
      window.setTimeout(() => done.current(), remaining.current),
    ];
  }, [timed]);
  const pause = () => {
    if (!timed || timers.current.length === 0) return;
    timers.current.forEach(clearTimeout);
    timers.current = [];
    remaining.current -= Date.now() - startedAt.current;
    setFading(false);
  };
  useEffect(() => {
    start();
    const running = timers;
    return () => running.current.forEach(clearTimeout);
  }, [start]);
  const item = useRef<HTMLLIElement>(null);
  return (
    <li
      ref={item}
      className={[
        `utrecht-alert utrecht-alert--${toast.variant === 'success' ? 'ok' : 'error'} dvp-toast`,
        fading ? ' dvp-toast--fading' : '',
      ].join('')}
      style={{ flexDirection: 'row', alignItems: 'flex-start', columnGap: 'var(--dvp-space-4)' }}
      // Paused while the pointer is on it or the focus is in it (its 'Sluiten'), so it can be read and closed.
      onMouseEnter={() => {
        hovered.current = true;
        pause();
      }}
      onMouseLeave={() => {
        hovered.current = false;
        start();
      }}
      onFocus={() => {
        focused.current = true;
        pause();
      }}
      onBlur={(event: FocusEvent<HTMLLIElement>) => {
        if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
        focused.current = false;
        start();
      }}
    >
      <div style={{ flex: '1 1 auto', minInlineSize: 0, display: 'grid', rowGap: 'var(--dvp-space-3)' }}>
        <p className="utrecht-paragraph" id={titleId}>
          <strong>{toast.title}</strong>
        </p>
        {toast.body && <p className="utrecht-paragraph">{toast.body}</p>}
      </div>
      <button
        type="button"
        className="utrecht-button utrecht-button--secondary-action"
        style={{ flex: 'none' }}
        aria-describedby={titleId}
        onClick={() => {
          if (item.current?.contains(document.activeElement)) focusAfterClosing(item.current);
          onDone();
        }}
      >
        Sluiten
      </button>
    </li>
  );
}

/**
 * Stacked messages at the bottom right, each with 'Sluiten'. A success goes after 5 s, fading 300 ms before, paused
 * while the pointer is on it or the focus in it; an error stays until it is closed. They never hide the focused
 * control: the page scrolls it clear of them (`keep-focus-clear.ts`).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const list = useRef<HTMLOListElement>(null);
  const room = useRef<HTMLDivElement>(null);
  useKeepFocusClear(list, room);
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => setToasts((all) => [...all, { ...toast, id: next.current++ }]),
    [],
  );
  return (
    <ToastContext.Provider value={show}>
      {children}
      {/* As high as the toasts: lets the page scroll a control at its very end clear of them. */}
      <div ref={room} className="dvp-toasts-room" aria-hidden="true" />
      <ol ref={list} className="dvp-toasts" aria-live="polite" aria-label="Meldingen">
        {toasts.map((toast) => (
          <ToastItem
            key={toast.id}
            toast={toast}
            onDone={() => setToasts((all) => all.filter((t) => t.id !== toast.id))}
          />
        ))}
      </ol>
    </ToastContext.Provider>
  );
}
