import { Worker } from 'node:worker_threads';
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

  /** Asks the thread to close its connection after the drain it runs, and waits for it (2 s at most). */
  async close(): Promise<void> {
    this.closed = true;
    const started = this.worker;
    this.worker = undefined;
    if (!started) return;
    const worker = await started.catch(() => undefined);
    if (!worker) return;
    worker.ref();
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ type: 'close' } satisfies FoldRequest);
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }

  private start(): Promise<Worker> {
    // From source (tsx, tests) the worker registers tsx's loader before it loads the .ts module.
    const fromSource = import.meta.url.endsWith('.ts');
    const url = new URL(fromSource ? './fold-thread.worker.ts' : './fold-thread.worker.js', import.meta.url);
    const workerData = { share: this.share };
    const worker = fromSource
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
          { eval: true, workerData },
        )
      : new Worker(url, { workerData });
    worker.unref();
    const ready = new Promise<Worker>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      worker.once('error', failed);
      worker.once('message', () => {
        worker.off('error', failed);
        worker.on('message', (reply: FoldReply) => this.settle(worker, reply));
        resolve(worker);
      });
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
