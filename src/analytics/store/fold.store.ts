import type { EntityState, FoldPlan } from '../fold/fold-plan.js';
import type { AnalyticsItem } from '../model/counters.js';

/** The fold plan a store runs (fold/fold-plan.ts planFold): handed in, so the store stays SQL only. */
export type Folder = (items: readonly AnalyticsItem[], known: ReadonlyMap<string, EntityState>) => FoldPlan;

/**
 * Folds the backlog somewhere other than the caller's thread (fold/fold-thread.ts): the same store
 * code on a connection of its own. AnalyticsService folds in-process when it has none.
 */
export interface FoldRunner {
  /**
   * Folds the backlog in batches of `batchSize`, stamping freshness with `now`; returns items folded.
   * When `stop` aborts, the drain ends at its next batch boundary.
   */
  drain(batchSize: number, now: number, stop?: AbortSignal): Promise<number>;
  /** AnalyticsFoldStore.pruneEntities on the runner's connection. */
  prune(cutoff: number, limit: number): Promise<number | null>;
  close(): Promise<void>;
}

/** The write side of analytics: folds feedback into the hourly aggregates, and forgets old entity states. */
export interface AnalyticsFoldStore {
  /**
   * In one transaction: claims up to `limit` feedback items not yet folded into analytics (in the
   * order they were stored on SQLite, oldest id first on PostgreSQL), loads the states of the entities they touch, applies the fold and marks the items
   * done. Returns how many items it folded, or null when another instance holds the analytics lock
   * (so each item is counted exactly once). When fewer than `limit` items were left, records
   * `startedAt` as the data's freshness.
   */
  aggregateNext(limit: number, fold: Folder, startedAt: number): Promise<number | null>;
  /** Removes up to `limit` search/session states whose latest item was received before `cutoff`; null when another instance holds the lock. */
  pruneEntities(cutoff: number, limit: number): Promise<number | null>;
  /** How many feedback items wait to be folded. */
  backlogSize(): Promise<number>;
}
