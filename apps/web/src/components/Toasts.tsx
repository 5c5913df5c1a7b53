import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

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

function ToastItem({ toast, onDone }: { toast: Toast; onDone(): void }) {
  const [fading, setFading] = useState(false);
  const remaining = useRef(VISIBLE_MS);
  const startedAt = useRef(Date.now());
  const timers = useRef<number[]>([]);
  const start = useCallback(() => {
    startedAt.current = Date.now();
    timers.current = [
      window.setTimeout(() => setFading(true), Math.max(0, remaining.current - FADE_MS)),
      window.setTimeout(onDone, remaining.current),
    ];
  }, [onDone]);
  const pause = () => {
    timers.current.forEach(clearTimeout);
    remaining.current -= Date.now() - startedAt.current;
    setFading(false);
  };
  useEffect(() => {
    start();
    return () => timers.current.forEach(clearTimeout);
  }, [start]);
  return (
    <li
      className={`utrecht-alert utrecht-alert--${toast.variant === 'success' ? 'ok' : 'error'} dvp-toast${fading ? ' dvp-toast--fading' : ''}`}
      onMouseEnter={pause}
      onMouseLeave={start}
    >
      <p className="utrecht-paragraph">
        <strong>{toast.title}</strong>
      </p>
      {toast.body && <p className="utrecht-paragraph">{toast.body}</p>}
    </li>
  );
}

/** Stacked messages at the bottom right: 5 s each, fading 300 ms before, paused while the pointer is on them. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => setToasts((all) => [...all, { ...toast, id: next.current++ }]),
    [],
  );
  return (
    <ToastContext.Provider value={show}>
      {children}
      <ol className="dvp-toasts" aria-live="polite" aria-label="Meldingen">
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
