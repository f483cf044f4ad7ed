import fs from 'node:fs';
import os from 'node:os';

/**
 * Background threads (the analytics fold) run at a lower CPU priority than the event loop, so that
 * on a machine with few cores their work waits for spare CPU instead of taking it from requests.
 *
 * Only on Linux: there a nice value belongs to the thread (setpriority(2), "BUGS": under NPTL it is
 * a per-thread attribute), so `os.setPriority(n)` on a worker thread leaves the event loop alone.
 * Elsewhere it belongs to the whole process and would slow the requests too, so nothing is done.
 */

/** The highest nice value: the thread runs only on CPU that threads of default priority leave idle. */
export const LOWEST_PRIORITY_NICE = 19;

/**
 * Makes sure libuv's thread pool exists before a thread lowers its priority. Threads inherit
 * the nice value of the thread that creates them, and the pool's threads (which run the event
 * loop's file syncs) are created by whichever thread first needs one: if a niced worker came
 * first, every later fsync of the requests would wait behind background work. Call on the event loop.
 */
export function startThreadPool(): Promise<void> {
  return new Promise((resolve) => fs.stat('.', () => resolve()));
}

/** Lowers the calling thread's priority to `nice` (0 changes nothing); where it cannot, the thread keeps the default. */
export function lowerThreadPriority(nice: number): void {
  if (process.platform !== 'linux' || nice <= 0) return;
  try {
    os.setPriority(nice);
  } catch {
    // A sandbox that refuses setpriority: the thread keeps the default priority.
  }
}
