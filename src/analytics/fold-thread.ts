import type { Worker } from 'node:worker_threads';
import { moduleWorker, stopWorker, workerReady } from '../common/worker-threads.js';
import type { ThreadShare } from '../storage/database.js';
import type { FoldRunner } from './analytics.store.js';

/**
 * Folds the analytics backlog on a worker thread with its own database connection, so that the
 * fold's CPU (planning in JavaScript and, on SQLite, executing its statements) runs beside the
 * event loop instead of on it. The fold is the same code as in-process (KyselyAnalyticsFolds.
 * aggregateNext): exactly-once rests on the same transaction, and on SQLite the two connections
 * take turns through the handle's ThreadWriteLock.
 */

export type FoldRequest = { type: 'drain'; id: number; batchSize: number; now: number } | { type: 'close' };
export type FoldReply = { id: number; folded: number } | { id: number; error: { message: string; code?: string | undefined } };

type Pending = { resolve: (folded: number) => void; reject: (error: Error) => void };

export class FoldThread implements FoldRunner {
  private worker: Promise<Worker> | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private closed = false;

  constructor(private readonly share: ThreadShare) {}

  async drain(batchSize: number, now: number): Promise<number> {
    if (this.closed) throw new Error('the analytics fold thread is closed');
    const worker = await (this.worker ??= this.start());
    const id = (this.next += 1);
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while a drain runs (a caller awaits it), let go when idle so it never keeps a process alive.
      worker.ref();
      worker.postMessage({ type: 'drain', id, batchSize, now } satisfies FoldRequest);
    });
  }

  /** Asks the thread to stop after the batch it runs and close its connection; waits for it (2 s at most). */
  async close(): Promise<void> {
    this.closed = true;
    const started = this.worker;
    this.worker = undefined;
    const worker = await started?.catch(() => undefined);
    if (worker) await stopWorker(worker, { type: 'close' } satisfies FoldRequest);
  }

  private start(): Promise<Worker> {
    const worker = moduleWorker(import.meta.url, './fold-thread.worker', { share: this.share });
    worker.unref();
    const ready = workerReady(worker).then(() => {
      worker.on('message', (reply: FoldReply) => this.settle(worker, reply));
      return worker;
    });
    // A thread that dies fails what it was doing; the next drain starts a new one.
    worker.on('error', () => undefined);
    worker.once('exit', (code) => {
      if (this.worker === ready) this.worker = undefined;
      const error = new Error(`the analytics fold thread exited (code ${code})`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
    return ready;
  }

  private settle(worker: Worker, reply: FoldReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) worker.unref();
    if ('folded' in reply) p.resolve(reply.folded);
    else p.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
  }
}
