/**
 * The analytics fold thread's body (fold-thread.ts starts it): its own connection to the database,
 * the same store code and planner as an in-process fold, one job (a drain, a prune) at a time on request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { drainBatches } from '../../common/batches.js';
import { lowerThreadPriority } from '../../common/thread-priority.js';
import { openDatabaseInThread } from '../../storage/database.js';
import { KyselyAnalyticsFoldStore } from '../store/fold.kysely-store.js';
import { planFold } from './fold-plan.js';
import type { FoldReply, FoldRequest, FoldThreadData } from './fold-thread.js';

const port = parentPort!;
const { share, nice } = workerData as FoldThreadData;
lowerThreadPriority(nice);
// On SQLite the thread writes only the analytics file (storage/sqlite-analytics-file.ts), whose
// writer is not the one ingestion takes: ingestion never waits for a fold.
const handle = openDatabaseInThread(share);
const folds = new KyselyAnalyticsFoldStore(handle.db, handle.capabilities);

// Closing stops a running drain after its current batch (each batch is one transaction that
// commits or rolls back whole), then closes the connection.
let stopping = false;
// Drains the scheduler asked to end early (it is stopping): each ends after the batch it runs.
const stopped = new Set<number>();
let running: Promise<void> = Promise.resolve();

/** Runs one job after the previous one (one connection, one transaction at a time) and answers it. */
function run(id: number, job: () => Promise<number | null>): void {
  running = running.then(job).then(
    (result) => port.postMessage({ id, result } satisfies FoldReply),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id, error: { message: e.message, code: (e as { code?: string }).code } } satisfies FoldReply);
    },
  );
}

port.on('message', (message: FoldRequest) => {
  if (message.type === 'close') {
    stopping = true;
    void running.finally(() => handle.close()).finally(() => port.close());
    return;
  }
  if (message.type === 'stop') {
    stopped.add(message.id);
    return;
  }
  if (message.type === 'prune') {
    run(message.id, () => (stopping ? Promise.resolve(null) : folds.pruneEntities(message.cutoff, message.limit)));
    return;
  }
  const { id, now, batchSize } = message;
  // Every batch of one drain uses the caller's clock reading: fresh_as_of then never claims more
  // than was true when the caller asked.
  run(id, () =>
    drainBatches(
      batchSize,
      () => now,
      // null ends the drain, as when another instance holds the analytics lock.
      () => (stopping || stopped.has(id) ? Promise.resolve(null) : folds.aggregateNext(batchSize, planFold, now)),
    ).finally(() => stopped.delete(id)),
  );
});
port.postMessage({ ready: true });
