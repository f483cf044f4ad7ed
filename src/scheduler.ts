import { PeriodicTask, type ObserveJob, type TaskLogger, type TaskSpec } from './common/periodic-task.js';

export interface Scheduler {
  start(): void;
  /** Stops every timer, tells the runs in progress to stop at their next batch boundary, and waits for them. */
  stop(): Promise<void>;
}

/**
 * The one place background work is started (Unleash's schedule-services): every module returns
 * task specs, and this runs each on its own jittered timer, observing the ones marked `observed`.
 * Each job is safe on several instances at once; how, is the module's business (compare-and-set
 * transitions, an advisory lock, leased job rows, read-only polls).
 */
export function createScheduler(specs: readonly TaskSpec[], log: TaskLogger, observeJob: ObserveJob): Scheduler {
  const names = new Set<string>();
  for (const spec of specs) {
    if (names.has(spec.name)) throw new Error(`two background tasks are named "${spec.name}"`);
    names.add(spec.name);
  }
  const tasks = specs.map((spec) => {
    const run = (signal: AbortSignal) => spec.run({ log, signal });
    return new PeriodicTask(spec.name, spec.intervalMs, spec.observed ? (signal) => observeJob(spec.name, () => run(signal)) : run, log);
  });
  return {
    start: () => tasks.forEach((t) => t.start()),
    stop: () => Promise.all(tasks.map((t) => t.stop())).then(() => undefined),
  };
}
