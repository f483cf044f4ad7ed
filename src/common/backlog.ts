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

/**
 * Calls `step` until the backlog is drained; `onCaughtUp` gets the start time of the batch that
 * reached the end. `step` gets the batch size to ask for: `batchSize`, doubled after each full
 * batch up to `maxBatchSize` (a large backlog is folded in fewer, larger transactions: each costs
 * a commit, and rows that several items of one batch touch are written once), back to
 * `batchSize` on the next drain. A step that returns fewer items than it was asked for is the end.
 */
export async function drainBatches(
  batchSize: number,
  now: () => number,
  step: (limit: number) => Promise<number | null>,
  onCaughtUp?: (startedAt: number) => void,
  maxBatchSize = batchSize,
): Promise<number> {
  let total = 0;
  let limit = batchSize;
  for (let batch = 0; ; batch++) {
    // Between batches, let the requests that queued up during the last one run first: on SQLite a
    // batch holds the event loop for its whole transaction, so a long drain would otherwise add
    // its full length to the latency of every request that arrives meanwhile.
    if (batch > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const startedAt = now();
    const processed = await step(limit);
    if (processed === null) return total;
    total += processed;
    if (processed < limit) {
      onCaughtUp?.(startedAt);
      return total;
    }
    limit = Math.min(limit * 2, Math.max(maxBatchSize, batchSize));
  }
}
