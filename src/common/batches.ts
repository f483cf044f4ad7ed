/**
 * Shared shape of the jobs that fold a backlog in batches (attribution, analytics): concurrent
 * callers in one process share one run, and a run stops when a batch comes back short (caught up)
 * or null (another instance holds the work's lock).
 */
export function singleFlight<T>(run: (stop?: AbortSignal) => Promise<T>): (stop?: AbortSignal) => Promise<T> {
  let running: Promise<T> | undefined;
  // A caller that joins a run in progress shares it as started: the first caller's stop signal governs it.
  return (stop) => {
    running ??= run(stop).finally(() => {
      running = undefined;
    });
    return running;
  };
}

export interface DrainOptions {
  /** Gets the start time of the batch that reached the end of the backlog. */
  onCaughtUp?: (startedAt: number) => void;
  /**
   * The stop signal of the background run the drain belongs to (PeriodicTask passes it to its run);
   * a request catching up passes none. Passed by hand rather than carried by an AsyncLocalStorage:
   * on Node 20 one AsyncLocalStorage in use puts a promise hook on every promise in the process,
   * the search-time routes' too (issue 28: ingestion's main-thread CPU went from 718 to 654 µs per
   * request without it).
   */
  stop?: AbortSignal;
}

/**
 * Calls `step` until the backlog is drained, or until the background run it belongs to is stopped
 * (a backlog is resumable: what is left is folded by the next run, in this process or the next).
 */
export async function drainBatches(
  batchSize: number,
  now: () => number,
  step: () => Promise<number | null>,
  { onCaughtUp, stop }: DrainOptions = {},
): Promise<number> {
  let total = 0;
  for (let batch = 0; ; batch++) {
    if (stop?.aborted) return total;
    // Between batches, let the requests that queued up during the last one run first: on SQLite a
    // batch holds the event loop for its whole transaction, so a long drain would otherwise add
    // its full length to the latency of every request that arrives meanwhile.
    if (batch > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const startedAt = now();
    const processed = await step();
    if (processed === null) return total;
    total += processed;
    if (processed < batchSize) {
      onCaughtUp?.(startedAt);
      return total;
    }
  }
}
