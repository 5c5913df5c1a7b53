/**
 * Runs `run` every `everyMs` after the previous run ended, so that a slow round never overlaps the next; a failed
 * round goes to `failed` and the next comes as usual. The answer stops the rounds and waits for the one under way.
 */
export function repeatEvery(
  everyMs: number,
  run: () => Promise<unknown>,
  failed: (error: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    current = run()
      .catch(failed)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, everyMs).unref();
      });
  };
  timer = setTimeout(tick, everyMs).unref();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await current;
  };
}
