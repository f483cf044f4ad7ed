import { AsyncLocalStorage } from 'node:async_hooks';

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

// The stop signal of the background run a drain belongs to (the scheduler sets it, runInBackground):
// carried by the async context so that every drain a task starts, however deep in a service, ends at
// its next batch boundary when the scheduler stops, without each service threading a signal through.
const backgroundStop = new AsyncLocalStorage<AbortSignal>();

/** Runs `run` as background work that `signal` stops: drains inside it end at their next batch boundary. */
export function runInBackground<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  return backgroundStop.run(signal, run);
}

/** The stop signal of the background run the caller belongs to, if any (undefined for a request's own work). */
export function backgroundStopSignal(): AbortSignal | undefined {
  return backgroundStop.getStore();
}

/**
 * Calls `step` until the backlog is drained, or until the background run it belongs to is stopped
 * (a backlog is resumable: what is left is folded by the next run, in this process or the next); `onCaughtUp` gets the start time of the batch that reached the end. */
export async function drainBatches(
  batchSize: number,
  now: () => number,
  step: () => Promise<number | null>,
  onCaughtUp?: (startedAt: number) => void,
): Promise<number> {
  const stop = backgroundStop.getStore();
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
