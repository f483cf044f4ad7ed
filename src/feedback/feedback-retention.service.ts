import type { Clock } from '../common/clock.js';
import type { FeedbackRetentionStore, RetentionOutcome } from './feedback-retention.store.js';
import { DAY_MS } from '../common/time.js';

/** Rows per delete statement: small enough that a batch never holds the writer for long. */
export const RETENTION_BATCH_ROWS = 1000;

/**
 * FEEDBACK_RETENTION_DAYS: feedback received more than that many days ago is removed, hourly.
 * 0 keeps everything (the default). What was already folded into experiment sums, analytics
 * aggregates and trained model versions stays: retention bounds the raw log, not what was learnt.
 */
export class FeedbackRetentionService {
  constructor(
    private readonly store: FeedbackRetentionStore,
    private readonly clock: Clock,
    readonly retentionDays: number,
  ) {}

  /** Keeps partitions ahead of the clock, then removes what is past retention; returns the rows removed. */
  async run(): Promise<RetentionOutcome & { partitionsCreated: number }> {
    const now = this.clock.now();
    const partitionsCreated = await this.store.ensurePartitions(now);
    if (this.retentionDays <= 0) return { items: 0, submissions: 0, partitionsDropped: 0, partitionsCreated };
    const removed = await this.store.removeReceivedBefore(now - this.retentionDays * DAY_MS, RETENTION_BATCH_ROWS);
    return { ...removed, partitionsCreated };
  }
}
