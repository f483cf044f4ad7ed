import type { Kysely, Transaction } from 'kysely';
import { ANALYTICS_LOCK, tryTransactionLock } from '../../storage/advisory-locks.js';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { AnalyticsFoldStore, Folder } from './fold.store.js';
import { FixedChunks } from '../../storage/batch-write.js';
import {
  totalHours,
  queryHours,
  resultSlices,
  queryTexts,
  entityStates,
  hourQueries,
  dayMarkers,
  dayQueries,
  loadStates,
  storedIds,
} from './fold-statements.js';
import { entityKeys, type EntityState, type FoldPlan } from '../fold/fold-plan.js';
import { COUNTERS, type AnalyticsItem } from '../model/counters.js';
import type { Backlog } from './backlog/backlog.js';
import { backlogFor } from './backlog/backlog-for.js';
import type { BacklogPosition, ClaimedItem } from './backlog/claimed-item.js';
import { DAY_MS } from '../../common/time.js';
import { addLateHoursToSpans, moveSpans } from './span-upkeep.js';
import { spanAnchorAt } from '../fold/spans.js';

/**
 * The analytics fold store (fold.store.ts), which runs the fold plan over SQL: claims unfolded feedback items (backlog/backlog.ts
 * says how each database knows which), folds them into the hourly counters, the precomputed spans and the
 * entity states in one transaction, and prunes old states.
 */

type Trx = Transaction<Database>;

/** What the fold branches on (database.ts says what each means). */
export type FoldCapabilities = Pick<
  DatabaseCapabilities,
  'supportsAdvisoryLocks' | 'commitOrderedRowids' | 'supportsArrayParameters' | 'readsHoldBackWriters'
>;

/** A batch claimed beforehand, and the backlog position past it. */
type Claimed = { items: ClaimedItem[]; next: BacklogPosition };

/** The batch read before the fold's transaction is no longer what the backlog holds: fold it again. */
class StaleBatch extends Error {}

/** The entity keys a batch reads and writes (fold/fold-plan.ts's entityKeys of each item), each once. */
function entityKeysOf(items: readonly AnalyticsItem[]): string[] {
  const keys = new Set<string>();
  for (const i of items) for (const { key } of entityKeys(i)) keys.add(key);
  return [...keys];
}

export class KyselyAnalyticsFoldStore implements AnalyticsFoldStore {
  private readonly chunks: FixedChunks;
  private readonly backlog: Backlog;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: FoldCapabilities,
  ) {
    this.chunks = new FixedChunks(capabilities);
    this.backlog = backlogFor(capabilities);
  }

  /**
   * Folds the next `limit` unfolded items in one transaction (AnalyticsFoldStore.aggregateNext).
   *
   * Where a read transaction holds back writers (SQLite: the WAL catch-up checkpoint, with ingestion
   * paused, waits for readers of the feedback file), the batch is read first in a short transaction
   * of its own and folded in a second one that reads the feedback file only at its end, to check the
   * batch is still stored: an erasure or retention in between rolls the fold back (an erased
   * session's state must not be written again), as does another fold that moved the cursor; the
   * batch is then folded the one-transaction way. bench:analytics (SQLite, 8 in flight, fold thread)
   * measured ingestion paused 0.5–1.1 s of every 8 s, in pauses up to the 250 ms wait, before.
   */
  async aggregateNext(limit: number, fold: Folder, startedAt: number): Promise<number | null> {
    if (this.capabilities.readsHoldBackWriters) {
      const claimed = await this.db.transaction().execute((trx) => this.backlog.claim(trx, limit));
      try {
        return await this.foldBatch(limit, fold, startedAt, claimed);
      } catch (error) {
        if (!(error instanceof StaleBatch)) throw error;
      }
    }
    return this.foldBatch(limit, fold, startedAt, null);
  }

  /** Folds `claimed` (read beforehand), or a batch claimed in this transaction when null. */
  private async foldBatch(limit: number, fold: Folder, startedAt: number, claimed: Claimed | null): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks && !(await tryTransactionLock(trx, ANALYTICS_LOCK))) return null;
      // A write first: on SQLite the transaction then holds the analytics file's writer from its
      // first statement, so no other connection's commit can make what it reads stale (SQLite would
      // refuse its first write after such a read with SQLITE_BUSY_SNAPSHOT instead of waiting).
      const progress = await trx
        .updateTable('analytics_progress')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', 1)
        .returning('window_anchor')
        .executeTakeFirst();
      const anchor = progress?.window_anchor == null ? null : Number(progress.window_anchor);
      if (claimed !== null && !(await this.backlog.unmoved(trx, claimed.next))) throw new StaleBatch();
      const { items, next } = claimed ?? (await this.backlog.claim(trx, limit));
      const known = await this.states(trx, items);
      const plan = fold(items, known);
      if (items.length > 0) {
        await this.apply(trx, plan, anchor);
        await this.writeStates(trx, items, plan, known);
      }
      // Also without items: on PostgreSQL a claim may have closed a window.
      await this.backlog.markFolded(trx, next);
      if (claimed !== null && !(await this.stillStored(trx, items))) throw new StaleBatch();
      const nextAnchor = spanAnchorAt(startedAt);
      if (nextAnchor !== anchor) await moveSpans(trx, anchor, nextAnchor);
      if (items.length < limit || nextAnchor !== anchor) {
        const set = { ...(items.length < limit ? { fresh_as_of: startedAt } : {}), window_anchor: nextAnchor };
        await trx
          .insertInto('analytics_progress')
          .values({ id: 1, fresh_as_of: null, ...set })
          .onConflict((oc) => oc.column('id').doUpdateSet(set))
          .execute();
      }
      return items.length;
    });
  }

  /** Every item of the batch is still stored (ids are never reused). */
  private async stillStored(trx: Trx, items: readonly ClaimedItem[]): Promise<boolean> {
    const found = await this.chunks.runKeys(
      trx,
      storedIds,
      items.map((i) => i.id),
    );
    return found.length === items.length;
  }

  /** How many feedback items wait to be folded. */
  backlogSize(): Promise<number> {
    return this.backlog.size(this.db);
  }

  private async states(trx: Trx, items: AnalyticsItem[]): Promise<Map<string, EntityState>> {
    const known = new Map<string, EntityState>();
    for (const r of await this.chunks.runKeys<{ key: string; state: string }>(trx, loadStates, entityKeysOf(items))) {
      known.set(r.key, JSON.parse(r.state) as EntityState);
    }
    return known;
  }

  /**
   * Writes the new state of every entity the batch changed, and the latest received_at of every
   * entity it touched (retention removes an entity once its items are gone: see pruneEntities).
   */
  private async writeStates(
    trx: Trx,
    items: readonly (AnalyticsItem & { receivedAt: number })[],
    plan: FoldPlan,
    known: ReadonlyMap<string, EntityState>,
  ): Promise<void> {
    const received = new Map<string, number>();
    for (const i of items) {
      for (const { key } of entityKeys(i)) received.set(key, Math.max(received.get(key) ?? 0, i.receivedAt));
    }
    const rows = [...received].map(([key, last]) => [key, JSON.stringify(plan.states.get(key) ?? known.get(key)), last]);
    await this.chunks.run(trx, entityStates, rows);
  }

  /**
   * Removes up to `limit` entity states whose latest item was received before `cutoff` (those
   * items are past retention), under the analytics lock. Returns how many, or null when another
   * instance holds the lock.
   */
  async pruneEntities(cutoff: number, limit: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks && !(await tryTransactionLock(trx, ANALYTICS_LOCK))) return null;
      const result = await trx
        .deleteFrom('analytics_entities')
        .where('key', 'in', (eb) =>
          eb.selectFrom('analytics_entities').select('key').where('last_received', '<', cutoff).orderBy('last_received').limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  private async apply(trx: Trx, plan: FoldPlan, anchor: number | null): Promise<void> {
    const totals = plan.rows.filter((r) => r.key.queryHash === null);
    const perQuery = plan.rows.filter((r) => r.key.queryHash !== null);
    const counters = (c: Record<string, number>) => COUNTERS.map((k) => c[k]);
    await this.chunks.run(
      trx,
      totalHours,
      totals.map((r) => [r.key.dimension, r.key.value, r.key.hour, ...counters(r.counters)]),
    );
    const created = new Set<string>();
    const returned = await this.chunks.run<{ dimension: string; dim_value: string; hour: number; query_hash: string; upserts: number }>(
      trx,
      queryHours,
      perQuery.map((r) => [r.key.dimension, r.key.value, r.key.hour, r.key.queryHash, ...counters(r.counters), 0]),
    );
    for (const r of returned) {
      if (Number(r.upserts) === 0) created.add(`${r.dimension}\u0001${r.dim_value}\u0001${Number(r.hour)}\u0001${r.query_hash}`);
    }
    await this.countCreatedRows(trx, created);
    await addLateHoursToSpans(trx, perQuery, created, anchor);
    // All traffic is dimension '' (migration 0075), as in the hour tables.
    await this.chunks.run(
      trx,
      resultSlices,
      plan.results.map((r) => [r.dimension, r.value, r.queryHash, r.hour, r.resultId, r.position, r.impressions, r.clicks]),
    );
    await this.chunks.run(
      trx,
      queryTexts,
      [...plan.texts].map(([hash, t]) => [hash, t.text, t.sourceId]),
    );
  }

  /**
   * Creates the (query, hour) rows the batch's deltas will land in that do not exist yet, and
   * returns their keys: a query's first feedback in an hour. Counted into analytics_total_hours.queries
   * (distinct queries per hour), into the spans' hour_rows, and, through a (query, day) marker,
   * into analytics_total_days.queries (distinct queries per day).
   */
  private async countCreatedRows(trx: Trx, created: ReadonlySet<string>): Promise<void> {
    if (created.size === 0) return;
    const perHour = new Map<string, { dimension: string; dim_value: string; hour: number; queries: number }>();
    const days = new Map<string, { dimension: string; dim_value: string; day: number; query_hash: string }>();
    for (const k of created) {
      const [dimension, dimValue, hourText, hash] = k.split('\u0001') as [string, string, string, string];
      const hour = Number(hourText);
      const hk = `${dimension}\u0001${dimValue}\u0001${hour}`;
      const h = perHour.get(hk) ?? { dimension, dim_value: dimValue, hour, queries: 0 };
      h.queries += 1;
      perHour.set(hk, h);
      const day = Math.floor(hour / DAY_MS) * DAY_MS;
      days.set(`${dimension}\u0001${dimValue}\u0001${day}\u0001${hash}`, { dimension, dim_value: dimValue, day, query_hash: hash });
    }
    await this.chunks.run(
      trx,
      hourQueries,
      [...perHour.values()].map((h) => [h.dimension, h.dim_value, h.hour, h.queries]),
    );
    const marked = await this.chunks.run<{ dimension: string; dim_value: string; day: number }>(
      trx,
      dayMarkers,
      [...days.values()].map((d) => [d.dimension, d.dim_value, d.day, d.query_hash]),
    );
    const perDay = new Map<string, { dimension: string; dim_value: string; day: number; queries: number }>();
    for (const r of marked) {
      const dk = `${r.dimension}\u0001${r.dim_value}\u0001${Number(r.day)}`;
      const d = perDay.get(dk) ?? { dimension: r.dimension, dim_value: r.dim_value, day: Number(r.day), queries: 0 };
      d.queries += 1;
      perDay.set(dk, d);
    }
    await this.chunks.run(
      trx,
      dayQueries,
      [...perDay.values()].map((d) => [d.dimension, d.dim_value, d.day, d.queries]),
    );
  }
}
