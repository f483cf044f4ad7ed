/** What one retention run removed. */
export interface RetentionOutcome {
  items: number;
  submissions: number;
  /** Whole daily partitions dropped (PostgreSQL); 0 on SQLite. */
  partitionsDropped: number;
}

/** Keeps the feedback tables bounded: partitions ahead of the clock, and removal of old feedback. */
export interface FeedbackRetentionStore {
  /** Creates the daily partitions for today and the days ahead (PostgreSQL); returns how many were new. */
  ensurePartitions(now: number): Promise<number>;
  /**
   * Removes feedback received before `cutoff`: whole days at once where the database can, the rest in
   * batches of at most `batchSize` rows, each its own short transaction so writers interleave.
   */
  removeReceivedBefore(cutoff: number, batchSize: number): Promise<RetentionOutcome>;
}
