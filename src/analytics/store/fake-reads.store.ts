import { DAY_MS } from '../../common/time.js';
import { planFold, type EntityState, type FoldPlan } from '../fold/fold-plan.js';
import { COUNTERS, emptyCounters, type AnalyticsItem, type Counters } from '../model/counters.js';
import type { AnalyticsReadsStore, HourCounters, QueryCounters, ResultCounts, Slice } from './reads.store.js';

/**
 * The analytics reads over in-memory hour rows, for tests of the service. `fold` runs the same pure
 * fold plan the fold store runs and keeps its rows; every read then sums the hour rows directly
 * (the Kysely store reads through precomputed spans where it can: the reads contract,
 * test/contract/analytics-reads.contract.test.ts, holds both to the same answers).
 */

interface HourRow {
  dimension: string;
  value: string;
  hour: number;
  counters: Counters;
}
type QueryHourRow = HourRow & { queryHash: string };
interface ResultRow {
  dimension: string;
  value: string;
  queryHash: string;
  hour: number;
  resultId: string;
  position: number;
  impressions: number;
  clicks: number;
}

const key = (...parts: (string | number)[]) => parts.join('\u0001');
const inSlice = (
  r: { dimension: string; value: string; hour: number },
  s: Pick<Slice, 'fromHour' | 'toHour'> & { dimension: string; value: string },
) => r.dimension === s.dimension && r.value === s.value && r.hour >= s.fromHour && r.hour < s.toHour;
// As the Kysely store's sums put back together from spans (a reciprocal-rank sum can be off by an ulp).
const roundSum = (n: number) => Math.round(n * 1e9) / 1e9;

export class FakeAnalyticsReadsStore implements AnalyticsReadsStore {
  private readonly totalRows = new Map<string, HourRow>();
  private readonly queryRows = new Map<string, QueryHourRow>();
  private readonly resultRows = new Map<string, ResultRow>();
  private readonly displayTexts = new Map<string, { text: string; sourceId: string }>();
  private readonly states = new Map<string, EntityState>();
  private fresh: number | null = null;

  /**
   * Folds the items into the hour rows (as the fold store would, in one batch), and records
   * `freshAsOf` as the data's freshness when given (the fold store does when it reaches the end).
   */
  fold(items: readonly AnalyticsItem[], freshAsOf?: number): void {
    const plan = planFold(items, this.states);
    for (const [k, state] of plan.states) this.states.set(k, state);
    this.apply(plan, freshAsOf);
  }

  /**
   * Adds a fold plan's deltas to the hour, result and text rows, and records `freshAsOf` when
   * given: what the fold store writes (fake-fold.store.ts applies its plans here, keeping the
   * entity states itself).
   */
  apply(plan: FoldPlan, freshAsOf?: number): void {
    for (const { key: k, counters } of plan.rows) {
      const row =
        k.queryHash === null
          ? this.row(this.totalRows, key(k.dimension, k.value, k.hour), { dimension: k.dimension, value: k.value, hour: k.hour })
          : this.row(this.queryRows, key(k.dimension, k.value, k.hour, k.queryHash), {
              dimension: k.dimension,
              value: k.value,
              hour: k.hour,
              queryHash: k.queryHash,
            });
      for (const c of COUNTERS) row.counters[c] += counters[c];
      // A query's first row in an hour makes the hour's total row too (it counts distinct queries).
      if (k.queryHash !== null)
        this.row(this.totalRows, key(k.dimension, k.value, k.hour), { dimension: k.dimension, value: k.value, hour: k.hour });
    }
    for (const r of plan.results) {
      const k = key(r.dimension, r.value, r.queryHash, r.hour, r.resultId, r.position);
      const row = this.resultRows.get(k) ?? { ...r, impressions: 0, clicks: 0 };
      row.impressions += r.impressions;
      row.clicks += r.clicks;
      this.resultRows.set(k, row);
    }
    for (const [hash, t] of plan.texts) {
      const known = this.displayTexts.get(hash);
      if (!known || t.sourceId < known.sourceId) this.displayTexts.set(hash, t);
    }
    if (freshAsOf !== undefined) this.fresh = freshAsOf;
  }

  private row<R extends HourRow>(rows: Map<string, R>, k: string, at: Omit<R, 'counters'>): R {
    let row = rows.get(k);
    if (!row) {
      row = { ...at, counters: emptyCounters() } as R;
      rows.set(k, row);
    }
    return row;
  }

  private queryRowsOf(slice: Slice, hashes?: readonly string[]): QueryHourRow[] {
    const only = hashes ? new Set(hashes) : null;
    return [...this.queryRows.values()].filter((r) => inSlice(r, slice) && (!only || only.has(r.queryHash)));
  }

  async freshAsOf(): Promise<number | null> {
    return this.fresh;
  }

  async totalHours(slice: Slice): Promise<HourCounters[]> {
    const queries = new Map<number, number>();
    for (const r of this.queryRowsOf(slice)) queries.set(r.hour, (queries.get(r.hour) ?? 0) + 1);
    return [...this.totalRows.values()]
      .filter((r) => inSlice(r, slice))
      .sort((a, b) => a.hour - b.hour)
      .map((r) => ({ hour: r.hour, counters: { ...r.counters }, queries: queries.get(r.hour) ?? 0 }));
  }

  async distinctPerDay(slice: Slice): Promise<Map<number, number>> {
    const fromDay = Math.floor(slice.fromHour / DAY_MS) * DAY_MS;
    const days = new Map<number, Set<string>>();
    for (const r of this.queryRowsOf({ ...slice, fromHour: fromDay, toHour: Math.ceil(slice.toHour / DAY_MS) * DAY_MS })) {
      const day = Math.floor(r.hour / DAY_MS) * DAY_MS;
      if (day >= slice.toHour) continue;
      days.set(day, (days.get(day) ?? new Set()).add(r.queryHash));
    }
    return new Map([...days].map(([day, hashes]) => [day, hashes.size]));
  }

  async totalSearches(slice: Slice): Promise<number> {
    let n = 0;
    for (const r of this.totalRows.values()) if (inSlice(r, slice)) n += r.counters.searches;
    return n;
  }

  async queryTotals(slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
    if (options.hashes && options.hashes.length === 0) return [];
    const out = new Map<string, QueryCounters>();
    for (const r of this.queryRowsOf(slice, options.hashes)) {
      const o = out.get(r.queryHash) ?? { queryHash: r.queryHash, counters: emptyCounters(), rows: 0 };
      o.rows += 1;
      // The list's counters: the histogram columns stay 0, as the interface says.
      for (const c of COUNTERS) if (!c.startsWith('fc_')) o.counters[c] += r.counters[c];
      out.set(r.queryHash, o);
    }
    const list = [...out.values()];
    for (const r of list) r.counters.first_click_rr_sum = roundSum(r.counters.first_click_rr_sum);
    return options.hashes ? list : list.filter((r) => r.counters.searches >= options.minSearches);
  }

  async queryTotalsWithPrevious(
    slice: Slice,
    previous: { fromHour: number; toHour: number },
    options: { minSearches: number },
  ): Promise<{ current: QueryCounters[]; previous: QueryCounters[] }> {
    const current = await this.queryTotals(slice, { minSearches: options.minSearches });
    const hashes = current.map((r) => r.queryHash);
    const before = await this.queryTotals({ ...slice, ...previous }, { minSearches: 0, hashes });
    // Impressions and clicks only, the least the interface promises.
    const zero = emptyCounters();
    return {
      current,
      previous: before.map((r) => ({ ...r, counters: { ...zero, impressions: r.counters.impressions, clicks: r.counters.clicks } })),
    };
  }

  async queryHours(slice: Slice, hashes: readonly string[]): Promise<(HourCounters & { queryHash: string })[]> {
    return this.queryRowsOf(slice, hashes)
      .sort((a, b) => a.hour - b.hour || (a.queryHash < b.queryHash ? -1 : 1))
      .map((r) => ({ queryHash: r.queryHash, hour: r.hour, counters: { ...r.counters } }));
  }

  async distinctQueries(slice: Slice): Promise<number> {
    return new Set(this.queryRowsOf(slice).map((r) => r.queryHash)).size;
  }

  async searchTrends(
    slice: Slice,
    hashes: readonly string[],
    bucketMs: number,
  ): Promise<{ queryHash: string; bucket: number; searches: number }[]> {
    const out = new Map<string, { queryHash: string; bucket: number; searches: number }>();
    for (const r of this.queryRowsOf(slice, hashes)) {
      const bucket = Math.floor(r.hour / bucketMs) * bucketMs;
      const k = key(r.queryHash, bucket);
      const o = out.get(k) ?? { queryHash: r.queryHash, bucket, searches: 0 };
      o.searches += r.counters.searches;
      out.set(k, o);
    }
    return [...out.values()];
  }

  async results(
    queryHash: string,
    fromHour: number,
    toHour: number,
    dimension?: { dimension: string; value: string },
  ): Promise<ResultCounts[]> {
    // All traffic is dimension '' and value '', as in the tables.
    const slice = { dimension: dimension?.dimension ?? '', value: dimension?.value ?? '', fromHour, toHour };
    const out = new Map<string, ResultCounts>();
    for (const r of this.resultRows.values()) {
      if (r.queryHash !== queryHash || !inSlice(r, slice)) continue;
      const k = key(r.resultId, r.position);
      const o = out.get(k) ?? { resultId: r.resultId, position: r.position, impressions: 0, clicks: 0 };
      o.impressions += r.impressions;
      o.clicks += r.clicks;
      out.set(k, o);
    }
    return [...out.values()].sort((a, b) => (a.resultId < b.resultId ? -1 : a.resultId > b.resultId ? 1 : a.position - b.position));
  }

  async texts(hashes: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const h of hashes) {
      const t = this.displayTexts.get(h);
      if (t) out.set(h, t.text);
    }
    return out;
  }

  async knows(queryHash: string): Promise<boolean> {
    for (const r of this.queryRows.values()) if (r.queryHash === queryHash && r.dimension === '') return true;
    return false;
  }
}
