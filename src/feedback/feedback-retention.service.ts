import type { Clock } from '../common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from '../common/domain-events.js';
import { retentionEvent } from './feedback-events.js';
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
    /** A line per run that removes or partitions (with retention off and nothing partitioned, none). */
    private readonly events: DomainEventLog = SILENT_EVENTS,
  ) {}

  /** Keeps partitions ahead of the clock, then removes what is past retention; returns the rows removed. */
  async run(): Promise<RetentionOutcome & { partitionsCreated: number }> {
    const now = this.clock.now();
    const partitionsCreated = await this.store.ensurePartitions(now);
    const cutoff = now - this.retentionDays * DAY_MS;
    const outcome =
      this.retentionDays <= 0
        ? { items: 0, submissions: 0, partitionsDropped: 0, partitionsCreated }
        : { ...(await this.store.removeReceivedBefore(cutoff, RETENTION_BATCH_ROWS)), partitionsCreated };
    if (this.retentionDays > 0 || partitionsCreated > 0) {
      const e = retentionEvent(outcome, this.retentionDays, cutoff);
      this.events.record(e.event, e.fields, e.message);
    }
    return outcome;
  }
}
