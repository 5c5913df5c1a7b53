import { useRef } from 'react';
import { useLocation } from 'react-router';

/** The reason a flow screen started over (carried in the navigation state by the flow error handler's restart). */
export function RestartNotice() {
  const notice = (useLocation().state as { restartNotice?: unknown } | null)?.restartNotice;
  if (typeof notice !== 'string') return null;
  return (
    <div className="utrecht-alert utrecht-alert--warning" role="status">
      <p className="utrecht-paragraph">{notice}</p>
    </div>
  );
}

/** Navigation options that carry a restart notice to the next screen. */
export const withNotice = (notice?: string) => ({ replace: true, state: notice ? { restartNotice: notice } : null });

/**
 * Options for the screen's own address updates (the new flow id) that keep the current navigation state, so a restart
 * notice survives them. Read through a ref: the update happens in an async callback made before the notice arrived.
 */
export function useSameScreenNavigation() {
  const state = useRef<unknown>(null);
  state.current = useLocation().state;
  return () => ({ replace: true, state: state.current });
}
