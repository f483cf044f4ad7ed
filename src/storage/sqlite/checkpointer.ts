import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { stopWorker } from '../../common/worker-threads.js';
import { analyticsFileOf } from './sqlite-analytics-file.js';

/** How long a catch-up checkpoint (SqliteSyncingDriver.catchUp) waits for readers of older snapshots (the analytics fold thread's) to finish. */
const CATCH_UP_WAIT_MS = 250;

/**
 * The checkpoint thread's body, run from its source text (so it works from src/ under tsx and
 * vitest as from dist/): it may use only `require` and `workerData`.
 */
function checkpointThread(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const options = workerData as { file: string; analyticsFile: string; betterSqlite3: string; intervalMs: number; catchUpWaitMs: number };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require(options.betterSqlite3) as typeof BetterSqlite3;
  const db = new Database(options.file);
  db.pragma('busy_timeout = 0');
  // The analytics file too (sqlite-analytics-file.ts): wal_checkpoint without a schema checkpoints every attached file.
  db.prepare('attach database ? as analytics').run(options.analyticsFile);
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy (another instance checkpointing) or out of space: the WAL keeps the data; try again.
    }
  }, options.intervalMs);
  parentPort!.on('message', (message: string) => {
    if (message === 'checkpoint main' || message === 'checkpoint analytics') {
      // The writes of this process pause meanwhile (catchUp), for one file: the analytics file
      // is written by the fold thread, which these pauses do not stop, so checkpointing it too would
      // lengthen them for nothing. RESTART waits (in SQLite's busy handler, here, at most
      // catchUpWaitMs) for readers still on older snapshots, such as the fold thread reading
      // feedback, so that the next commit starts the WAL again; PASSIVE would skip them and leave
      // the WAL as long as it was.
      try {
        db.pragma(`busy_timeout = ${options.catchUpWaitMs}`);
        db.pragma(`${message.slice('checkpoint '.length)}.wal_checkpoint(RESTART)`);
      } catch {
        // as above
      } finally {
        db.pragma('busy_timeout = 0');
      }
      parentPort!.postMessage('checkpointed');
      return;
    }
    clearInterval(timer);
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // as above
    }
    db.close();
    parentPort!.close();
  });
}

/** The checkpoint thread of one SQLite file and its analytics file (sqlite-driver.ts says why). */
export class Checkpointer {
  private readonly worker: Worker;

  constructor(file: string, intervalMs = 100) {
    const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(`(${checkpointThread.toString()})()`, {
      eval: true,
      workerData: { file, analyticsFile: analyticsFileOf(file), betterSqlite3, intervalMs, catchUpWaitMs: CATCH_UP_WAIT_MS },
    });
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /** One checkpoint of one file now; resolves when it is done (or the thread is gone). */
  checkpoint(schema: 'main' | 'analytics'): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.worker.off('message', done);
        this.worker.off('exit', done);
        this.worker.unref();
        resolve();
      };
      this.worker.ref();
      this.worker.on('message', done);
      this.worker.on('exit', done);
      this.worker.postMessage(`checkpoint ${schema}`);
    });
  }

  async close(): Promise<void> {
    // Held (ref'd) until it has exited, so closing keeps the process alive until then.
    await stopWorker(this.worker, 'close');
  }
}
