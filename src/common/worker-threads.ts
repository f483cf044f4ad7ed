import { Worker } from 'node:worker_threads';

/**
 * Starting and stopping the service's own worker threads (the import's parser, the analytics fold,
 * SQLite's checkpointer), one way for all of them.
 */

/**
 * A worker running the module `name` beside the caller (`base` = the caller's import.meta.url):
 * `name.js` in the build, `name.ts` from source (tsx, tests), where the worker registers tsx's
 * loader before it loads the module, since worker threads do not inherit the parent's loader.
 */
export function moduleWorker(base: string, name: string, workerData: unknown): Worker {
  const fromSource = base.endsWith('.ts');
  const url = new URL(`${name}.${fromSource ? 'ts' : 'js'}`, base);
  return fromSource
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true, workerData },
      )
    : new Worker(url, { workerData });
}

/**
 * Resolves at the worker's first message (it says it is ready once its modules have loaded);
 * rejects if it fails or exits before. Only its own listeners are removed afterwards: the
 * Worker's own (which keep its port referenced) must stay.
 */
export function workerReady(worker: Worker): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => settle(() => reject(error));
    const exited = (code: number) => settle(() => reject(new Error(`worker exited (code ${code}) before it was ready`)));
    const ready = () => settle(resolve);
    const settle = (then: () => void) => {
      worker.off('error', failed);
      worker.off('exit', exited);
      worker.off('message', ready);
      then();
    };
    worker.once('error', failed);
    worker.once('exit', exited);
    worker.once('message', ready);
  });
}

/**
 * Asks a worker to finish (posts `message`), keeps the process alive until it has exited, and
 * terminates it if it has not within `graceMs`.
 */
export async function stopWorker(worker: Worker, message: unknown, graceMs = 2000): Promise<void> {
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.postMessage(message);
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  await worker.terminate();
}
