/**
 * The analytics fold thread's body (fold-thread.ts starts it): its own connection to the database,
 * the same store code and planner as an in-process fold, one drain at a time on request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { drainBatches } from '../common/backlog.js';
import { openDatabaseInThread, type ThreadShare } from '../storage/database.js';
import { KyselyAnalyticsFolds } from './analytics-fold.kysely-store.js';
import { planFold } from './fold.js';
import type { FoldReply, FoldRequest } from './fold-thread.js';

const port = parentPort!;
const share = (workerData as { share: ThreadShare }).share;
const handle = openDatabaseInThread(share);
const folds = new KyselyAnalyticsFolds(handle.db, handle.capabilities);
// Sharing SQLite's one writer with the event loop (the handle's thread lock), this thread's
// transactions hold what the event loop's writes wait for: each batch is read and planned before
// its transaction (aggregateNext checks inside that what was read still holds), and batches are
// small, so a write of the event loop waits for at most one short transaction. bench:analytics, 8 requests in flight, two alternated rounds each: 250-item
// batches cost ingestion 38 %, 64-item batches 28 %, 32-item batches 38 % (three rounds against 29 %
// for 64; 2026-11-27); with 64 in flight 250 and 64 both 18 %.
const readFirst = share.sqliteLock !== undefined;
const SQLITE_BATCH = 64;

// Closing stops a running drain after its current batch (each batch is one transaction that
// commits or rolls back whole), then closes the connection: a thread ended inside a transaction
// would leave the thread lock held and the event loop's writes waiting for ever.
let stopping = false;
let running: Promise<void> = Promise.resolve();

port.on('message', (message: FoldRequest) => {
  if (message.type === 'close') {
    stopping = true;
    void running.finally(() => handle.close()).finally(() => port.close());
    return;
  }
  const { id, now } = message;
  const batchSize = readFirst ? Math.min(SQLITE_BATCH, message.batchSize) : message.batchSize;
  // Every batch of one drain uses the caller's clock reading: fresh_as_of then never claims more
  // than was true when the caller asked.
  running = drainBatches(
    batchSize,
    () => now,
    // null ends the drain, as when another instance holds the analytics lock.
    () => (stopping ? Promise.resolve(null) : folds.aggregateNext(batchSize, planFold, now, { readFirst })),
  ).then(
    (folded) => port.postMessage({ id, folded } satisfies FoldReply),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id, error: { message: e.message, code: (e as { code?: string }).code } } satisfies FoldReply);
    },
  );
});
port.postMessage({ ready: true });
