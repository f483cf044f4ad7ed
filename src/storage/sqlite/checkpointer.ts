import type { Worker } from 'node:worker_threads';
import { moduleWorker, stopWorker } from '../../common/worker-threads.js';
import { analyticsFileOf } from './sqlite-analytics-file.js';

/** How long a catch-up checkpoint (SqliteSyncingDriver.catchUp) waits for readers of older snapshots (the analytics fold thread's) to finish. */
const CATCH_UP_WAIT_MS = 250;

/** What the checkpoint thread (checkpointer.worker.ts) is started with. */
export interface CheckpointerData {
  file: string;
  analyticsFile: string;
  intervalMs: number;
  catchUpWaitMs: number;
}

/** The checkpoint thread of one SQLite file and its analytics file (sqlite-driver.ts says why). */
export class Checkpointer {
  private readonly worker: Worker;

  constructor(file: string, intervalMs = 100) {
    const data: CheckpointerData = { file, analyticsFile: analyticsFileOf(file), intervalMs, catchUpWaitMs: CATCH_UP_WAIT_MS };
    this.worker = moduleWorker(import.meta.url, './checkpointer.worker', data);
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
