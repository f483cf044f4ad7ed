import type { Worker } from 'node:worker_threads';
import { startThreadPool } from '../../common/thread-priority.js';
import { moduleWorker, stopWorker, workerReady } from '../../common/worker-threads.js';
import type { ThreadShare } from '../../storage/database.js';
import type { FoldRunner } from '../store/fold.store.js';

/**
 * Folds the analytics backlog on a worker thread with its own database connection, so that the
 * fold's CPU (planning in JavaScript and, on SQLite, executing its statements) runs beside the
 * event loop instead of on it. The fold is the same code as in-process (KyselyAnalyticsFoldStore.
 * aggregateNext): exactly-once rests on the same transaction. On SQLite the thread writes only the
 * analytics file (storage/sqlite-analytics-file.ts), and the hourly prune of old states runs here
 * too, so that file has one writer in the process while the thread runs.
 *
 * The thread runs at nice `nice` (ANALYTICS_FOLD_NICE, common/thread-priority.ts): on a busy
 * machine it folds with the CPU that requests leave idle, and catches up when they leave more.
 */

export type FoldRequest =
  | { type: 'drain'; id: number; batchSize: number; now: number }
  | { type: 'prune'; id: number; cutoff: number; limit: number }
  /** Ends drain `id` after the batch it runs (the scheduler is stopping; the rest waits for the next start). */
  | { type: 'stop'; id: number }
  | { type: 'close' };
export type FoldReply = { id: number; result: number | null } | { id: number; error: { message: string; code?: string | undefined } };

export interface FoldThreadData {
  share: ThreadShare;
  /** The thread's nice value (0: the event loop's priority). */
  nice: number;
}

type Pending = { resolve: (result: number | null) => void; reject: (error: Error) => void };

export class FoldThread implements FoldRunner {
  private worker: Promise<Worker> | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private closed = false;

  constructor(
    private readonly share: ThreadShare,
    private readonly nice = 0,
  ) {}

  /**
   * Folds the backlog on the thread. Given a background run's `stop` (the scheduler's `analytics`
   * task), it ends at the thread's next batch boundary once that run is told to stop (common/batches.ts).
   */
  async drain(batchSize: number, now: number, stop?: AbortSignal): Promise<number> {
    if (stop?.aborted) return 0;
    let asked: { worker: Worker; id: number } | undefined;
    const onStop = () => {
      if (asked) asked.worker.postMessage({ type: 'stop', id: asked.id } satisfies FoldRequest);
    };
    stop?.addEventListener('abort', onStop, { once: true });
    try {
      return (await this.ask((id, worker) => ((asked = { worker, id }), { type: 'drain', id, batchSize, now }))) ?? 0;
    } finally {
      stop?.removeEventListener('abort', onStop);
    }
  }

  prune(cutoff: number, limit: number): Promise<number | null> {
    return this.ask((id) => ({ type: 'prune', id, cutoff, limit }));
  }

  private async ask(request: (id: number, worker: Worker) => FoldRequest): Promise<number | null> {
    if (this.closed) throw new Error('the analytics fold thread is closed');
    const worker = await (this.worker ??= this.start());
    const id = (this.next += 1);
    return new Promise<number | null>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while a job runs (a caller awaits it), let go when idle so it never keeps a process alive.
      worker.ref();
      worker.postMessage(request(id, worker));
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
    // The pool first, so that its threads keep the default priority (thread-priority.ts says why).
    const started: Promise<Worker> = startThreadPool().then(() => {
      const data: FoldThreadData = { share: this.share, nice: this.nice };
      const worker = moduleWorker(import.meta.url, './fold-thread.worker', data);
      worker.unref();
      // A thread that dies fails what it was doing; the next drain starts a new one.
      worker.on('error', () => undefined);
      worker.once('exit', (code) => {
        if (this.worker === started) this.worker = undefined;
        const error = new Error(`the analytics fold thread exited (code ${code})`);
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
      });
      return workerReady(worker).then(() => {
        worker.on('message', (reply: FoldReply) => this.settle(worker, reply));
        return worker;
      });
    });
    return started;
  }

  private settle(worker: Worker, reply: FoldReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) worker.unref();
    if ('result' in reply) p.resolve(reply.result);
    else p.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
  }
}
