import type { Container } from '../container.js';
import { PeriodicTask, type TaskLogger } from './periodic-task.js';

export interface BackgroundJobIntervals {
  schedulerMs: number;
  attributionMs: number;
  cachePollMs: number;
}

export const DEFAULT_INTERVALS: BackgroundJobIntervals = { schedulerMs: 1000, attributionMs: 2000, cachePollMs: 1000 };

/**
 * The jobs every instance runs. Each is safe to run on several instances at once: the
 * scheduler's transitions are compare-and-set, attribution holds a lock, the poll only reads.
 */
export function createBackgroundJobs(container: Container, log: TaskLogger, intervals = DEFAULT_INTERVALS) {
  const observed = (name: string, run: () => Promise<unknown>) => () => container.metrics.observeJob(name, run);
  const tasks = [
    new PeriodicTask(
      'experiment-scheduler',
      intervals.schedulerMs,
      observed('experiment-scheduler', () => container.lifecycleService.applyDue()),
      log,
    ),
    new PeriodicTask(
      'attribution',
      intervals.attributionMs,
      observed('attribution', () => container.attributionService.catchUp()),
      log,
    ),
    new PeriodicTask('experiment-cache-poll', intervals.cachePollMs, () => container.assignmentService.refreshIfChanged(), log),
    new PeriodicTask(
      'pre-exposure-covariates',
      1000,
      observed('pre-exposure-covariates', () => container.covariateService.drain()),
      log,
    ),
    new PeriodicTask(
      'idempotency-expiry',
      3_600_000,
      observed('idempotency-expiry', () => container.feedbackService.expireIdempotencyKeys()),
      log,
    ),
    // Keys created or revoked on another instance take effect here within this interval.
    new PeriodicTask('api-key-refresh', 5000, () => container.apiKeys.refresh(), log),
    ...container.learning.tasks(log, (name, run) => container.metrics.observeJob(name, run)),
  ];
  return {
    start: () => tasks.forEach((t) => t.start()),
    stop: () => Promise.all(tasks.map((t) => t.stop())).then(() => undefined),
  };
}
