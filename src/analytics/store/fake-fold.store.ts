import { entityKeys, type EntityState } from '../fold/fold-plan.js';
import type { AnalyticsItem } from '../model/counters.js';
import type { FakeAnalyticsReadsStore } from './fake-reads.store.js';
import type { AnalyticsFoldStore, Folder } from './fold.store.js';

/** An entity's state and the latest received_at of the items folded into it (what pruning goes by). */
interface StoredState {
  state: EntityState;
  lastReceived: number;
}

/**
 * In-memory AnalyticsFoldStore: its backlog is the items a test adds; each fold runs the given plan
 * over the entity states it keeps and applies the plan to a FakeAnalyticsReadsStore, so reads see
 * it. One instance, one caller: the analytics lock is never held elsewhere, so it never answers
 * null. The fold contract (test/contract/analytics-fold.contract.test.ts) holds it to the Kysely store.
 */
export class FakeAnalyticsFoldStore implements AnalyticsFoldStore {
  private readonly backlog: (AnalyticsItem & { receivedAt: number })[] = [];
  private readonly states = new Map<string, StoredState>();

  constructor(private readonly reads: FakeAnalyticsReadsStore) {}

  /** Stores items to fold, received at their own event time (as test/analytics/support/raw-items.ts stores rows). */
  add(items: readonly AnalyticsItem[]): void {
    for (const item of items) this.backlog.push({ ...item, receivedAt: item.eventTime });
  }

  async aggregateNext(limit: number, fold: Folder, startedAt: number): Promise<number> {
    const batch = this.backlog.splice(0, limit);
    const known = new Map<string, EntityState>();
    for (const item of batch) {
      for (const { key } of entityKeys(item)) {
        const stored = this.states.get(key);
        if (stored) known.set(key, stored.state);
      }
    }
    const plan = fold(batch, known);
    for (const item of batch) {
      for (const { key } of entityKeys(item)) {
        const state = plan.states.get(key) ?? known.get(key);
        if (!state) continue;
        const lastReceived = Math.max(this.states.get(key)?.lastReceived ?? 0, item.receivedAt);
        this.states.set(key, { state, lastReceived });
      }
    }
    // Freshness only once the backlog is drained, as the Kysely store records it.
    this.reads.apply(plan, batch.length < limit ? startedAt : undefined);
    return batch.length;
  }

  async pruneEntities(cutoff: number, limit: number): Promise<number> {
    const old = [...this.states]
      .filter(([, s]) => s.lastReceived < cutoff)
      .sort(([, a], [, b]) => a.lastReceived - b.lastReceived)
      .slice(0, limit);
    for (const [key] of old) this.states.delete(key);
    return old.length;
  }

  async backlogSize(): Promise<number> {
    return this.backlog.length;
  }
}
