import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * The one place that turns a module beside the caller into a worker thread (the import's
 * preparer, the analytics fold, SQLite's checkpointer, the ranker's split workers, the training
 * pool), and that starts, waits for and stops them. Entries are named `*.worker.ts`.
 *
 * From the build a worker runs `name.js`; from source (tsx, vitest) it runs `name.ts`, and it has
 * to load tsx itself first, since worker threads do not inherit the parent's loader and Node 20
 * will not start one from a `.ts`.
 */

/** The entry `name` beside `base` (the caller's import.meta.url): `.js` in the build, `.ts` from source. */
function entryOf(base: string, name: string): { url: URL; fromSource: boolean } {
  const fromSource = base.endsWith('.ts');
  return { url: new URL(`${name}.${fromSource ? 'ts' : 'js'}`, base), fromSource };
}

/**
 * tsx's ESM API (the `import` half of its `./esm/api` export: the CommonJS twin cannot register
 * ESM hooks), read from its package.json rather than with import.meta.resolve, which is missing
 * where tsx runs this file as CommonJS (in piscina's threads, which start the ranker's split workers).
 * Read once per process: every SQLite connection from source starts a checkpointer thread.
 */
let tsxEsmApiUrl: string | undefined;
function tsxEsmApi(): string {
  if (tsxEsmApiUrl) return tsxEsmApiUrl;
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  tsxEsmApiUrl = new URL(pkg.exports['./esm/api']!.import.default, pathToFileURL(pkgPath)).href;
  return tsxEsmApiUrl;
}

/**
 * A worker running the module `name` beside the caller (`base` = the caller's import.meta.url).
 * From source it starts from a stub that registers tsx's loader and then imports the module
 * (a plain `--import tsx` does not reach a worker's own entry).
 */
export function moduleWorker(base: string, name: string, workerData?: unknown): Worker {
  const { url, fromSource } = entryOf(base, name);
  return fromSource
    ? new Worker(`import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`, {
        eval: true,
        workerData,
      })
    : new Worker(url, { workerData });
}

/**
 * A piscina pool whose tasks run the default export of the module `name` beside the caller.
 * From source its threads start with `--import tsx`: piscina's own worker script is JavaScript
 * and imports the task module after tsx has registered.
 */
export function modulePool<Task, Result>(
  base: string,
  name: string,
  options: Omit<NonNullable<ConstructorParameters<typeof Piscina>[0]>, 'filename' | 'execArgv'>,
): Piscina<Task, Result> {
  const { url, fromSource } = entryOf(base, name);
  return new Piscina<Task, Result>({ ...options, filename: url.href, ...(fromSource ? { execArgv: ['--import', 'tsx'] } : {}) });
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
