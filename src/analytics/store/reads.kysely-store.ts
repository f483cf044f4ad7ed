import { sql } from 'kysely';
import type { AnalyticsReadsStore, HourCounters, QueryCounters, ResultCounts, Slice } from './reads.store.js';
import { KyselyQueryTotals, type Db } from './query-totals.kysely-store.js';
import { countersOf } from './span-sums.js';
import { HOUR_MS } from '../model/counters.js';
import { DAY_MS } from '../../common/time.js';
import { planRange } from '../fold/spans.js';
import { keyBatches } from '../../storage/batch-write.js';

/**
 * The analytics reads store (reads.store.ts) over Kysely: every answer the pages need, from hour rows and window
 * spans (the per-query sums over spans are KyselyQueryTotals').
 */
export class KyselyAnalyticsReadsStore extends KyselyQueryTotals implements AnalyticsReadsStore {
  async freshAsOf(): Promise<number | null> {
    const row = await this.db.selectFrom('analytics_progress').select('fresh_as_of').where('id', '=', 1).executeTakeFirst();
    return row?.fresh_as_of == null ? null : Number(row.fresh_as_of);
  }

  async totalHours(slice: Slice): Promise<HourCounters[]> {
    const rows = await this.db
      .selectFrom('analytics_total_hours')
      .selectAll()
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('hour', '>=', slice.fromHour)
      .where('hour', '<', slice.toHour)
      .orderBy('hour')
      .execute();
    return rows.map((r) => ({ hour: Number(r.hour), counters: countersOf(r), queries: Number(r.queries) }));
  }

  async distinctPerDay(slice: Slice): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('analytics_total_days')
      .select(['day', 'queries'])
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('day', '>=', Math.floor(slice.fromHour / DAY_MS) * DAY_MS)
      .where('day', '<', slice.toHour)
      .execute();
    return new Map(rows.map((r) => [Number(r.day), Number(r.queries)]));
  }

  async totalSearches(slice: Slice): Promise<number> {
    const row = await this.db
      .selectFrom('analytics_total_hours')
      .select(sql<number>`cast(coalesce(sum(searches), 0) as double precision)`.as('n'))
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('hour', '>=', slice.fromHour)
      .where('hour', '<', slice.toHour)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async queryHours(slice: Slice, hashes: readonly string[]): Promise<(HourCounters & { queryHash: string })[]> {
    if (hashes.length === 0) return [];
    // 4: the slice's dimension, value and hour bounds, bound besides the hashes.
    const rows = await keyBatches(
      hashes,
      (batch) =>
        this.db
          .selectFrom('analytics_query_hours')
          .selectAll()
          .where('query_hash', 'in', batch)
          .where('dimension', '=', slice.dimension)
          .where('dim_value', '=', slice.value)
          .where('hour', '>=', slice.fromHour)
          .where('hour', '<', slice.toHour)
          .orderBy('hour')
          .execute(),
      4,
    );
    return rows.map((r) => ({ queryHash: r.query_hash, hour: Number(r.hour), counters: countersOf(r) }));
  }

  async distinctQueries(slice: Slice): Promise<number> {
    return this.snapshot(async (db) => {
      const plan = planRange(await this.anchor(db), slice.fromHour, slice.toHour);
      if (!plan) return this.hourDistinct(db, slice);
      if (plan.sub > 0) return (await this.spanTotals(db, slice, { minSearches: 0 })).length;
      // The span's queries with hour rows, corrected for the queries of the edges.
      const edges: { sign: 1 | -1; rows: QueryCounters[] }[] = [];
      for (const e of plan.edges) {
        edges.push({
          sign: e.sign,
          rows: await this.hourTotals(db, { ...slice, fromHour: e.fromHour, toHour: e.toHour }, { minSearches: 0 }),
        });
      }
      const touched = [...new Set(edges.flatMap((e) => e.rows.map((r) => r.queryHash)))];
      const row = await db
        .selectFrom('analytics_query_windows')
        .select(sql<number>`count(*)`.as('n'))
        .where('span', '=', plan.add / HOUR_MS)
        .where('dimension', '=', slice.dimension)
        .where('dim_value', '=', slice.value)
        .where('hour_rows', '>', 0)
        .executeTakeFirst();
      let n = Number(row?.n ?? 0);
      const rows = new Map<string, number>();
      for (const r of await this.windowRows(db, plan.add, slice, { hashes: touched })) {
        if (r.rows > 0) n -= 1;
        rows.set(r.queryHash, r.rows);
      }
      for (const e of edges) for (const r of e.rows) rows.set(r.queryHash, (rows.get(r.queryHash) ?? 0) + e.sign * r.rows);
      for (const v of rows.values()) if (v > 0) n += 1;
      return n;
    });
  }

  private async hourDistinct(db: Db, slice: Slice): Promise<number> {
    // count(*) over a GROUP BY (hashed on PostgreSQL, where count(distinct …) sorts), from the
    // (dimension, value, query, hour) index: no table row is needed.
    const row = await db
      .selectFrom((eb) =>
        eb
          .selectFrom('analytics_query_hours')
          .select('query_hash')
          .where('dimension', '=', slice.dimension)
          .where('dim_value', '=', slice.value)
          .where('hour', '>=', slice.fromHour)
          .where('hour', '<', slice.toHour)
          .groupBy('query_hash')
          .as('q'),
      )
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async searchTrends(
    slice: Slice,
    hashes: readonly string[],
    bucketMs: number,
  ): Promise<{ queryHash: string; bucket: number; searches: number }[]> {
    if (hashes.length === 0) return [];
    // Integer division on both databases: UTC-aligned buckets.
    const bucket = sql<number>`hour / ${sql.lit(bucketMs)}`;
    const rows = await this.db
      .selectFrom('analytics_query_hours')
      .select(['query_hash', bucket.as('bucket'), sql<number>`cast(sum(searches) as double precision)`.as('searches')])
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('query_hash', 'in', [...hashes])
      .where('hour', '>=', slice.fromHour)
      .where('hour', '<', slice.toHour)
      .groupBy(['query_hash', bucket])
      .execute();
    return rows.map((r) => ({
      queryHash: r.query_hash,
      bucket: Number(r.bucket) * bucketMs,
      searches: Number(r.searches),
    }));
  }

  async results(
    queryHash: string,
    fromHour: number,
    toHour: number,
    dimension?: { dimension: string; value: string },
  ): Promise<ResultCounts[]> {
    const sums = [
      'result_id',
      'position',
      sql<number>`cast(sum(impressions) as double precision)`.as('impressions'),
      sql<number>`cast(sum(clicks) as double precision)`.as('clicks'),
    ] as const;
    // All traffic is dimension '' and value '' (migration 0075).
    const rows = await this.db
      .selectFrom('analytics_result_slices')
      .select(sums)
      .where('dimension', '=', dimension?.dimension ?? '')
      .where('dim_value', '=', dimension?.value ?? '')
      .where('query_hash', '=', queryHash)
      .where('hour', '>=', fromHour)
      .where('hour', '<', toHour)
      .groupBy(['result_id', 'position'])
      .orderBy('result_id')
      .orderBy('position')
      .execute();
    return rows.map((r) => ({ resultId: r.result_id, position: r.position, impressions: Number(r.impressions), clicks: Number(r.clicks) }));
  }

  async texts(hashes: readonly string[]): Promise<Map<string, string>> {
    const rows = await keyBatches(hashes, (slice) =>
      this.db.selectFrom('analytics_query_texts').select(['query_hash', 'query_text']).where('query_hash', 'in', slice).execute(),
    );
    return new Map(rows.map((r) => [r.query_hash, r.query_text]));
  }

  async knows(queryHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('analytics_query_hours')
      .select('query_hash')
      .where('dimension', '=', '')
      .where('dim_value', '=', '')
      .where('query_hash', '=', queryHash)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
