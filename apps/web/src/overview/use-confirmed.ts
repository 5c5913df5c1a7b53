import { useState } from 'react';
import { type DialogFailure, failureOf } from './DialogError';

/**
 * A confirmation being carried out: busy while its call runs, and why it failed (the server's reason or `fallback`),
 * shown in the dialog, which stays open.
 */
export function useConfirmed(fallback: string, options?: Parameters<typeof failureOf>[2]) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<DialogFailure>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (error) {
      setFailure(failureOf(error, fallback, options));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}
