/**
 * Shared shape of the jobs that fold a backlog in batches (attribution, analytics): concurrent
 * callers in one process share one run, and a run stops when a batch comes back short (caught up)
 * or null (another instance holds the work's lock).
 */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
}

/** Calls `step` until the backlog is drained; `onCaughtUp` gets the start time of the batch that reached the end. */
export async function drainBatches(
  batchSize: number,
  now: () => number,
  step: () => Promise<number | null>,
  onCaughtUp?: (startedAt: number) => void,
): Promise<number> {
  let total = 0;
  for (let batch = 0; ; batch++) {
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
