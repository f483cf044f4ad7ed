import { sql, type Kysely, type Transaction } from 'kysely';
import { addExcluded } from '../storage/additive-upsert.js';
import type { DatabaseCapabilities } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { AnalyticsStore, Folder, HourCounters, QueryCounters, ResultCounts, Slice } from './analytics.store.js';
import { COUNTERS, emptyCounters, recognisedKeys, type AnalyticsItem, type Counters, type EntityState, type FoldPlan } from './fold.js';

// Names the analytics lock among PostgreSQL advisory locks; the schema is the second key, as for attribution.
const ANALYTICS_LOCK = 774_201_012;
const ROW_CHUNK = 200;
const KEY_CHUNK = 500;

type Trx = Transaction<Database>;

function countersOf(row: Record<string, unknown>): Counters {
  const c = emptyCounters();
  for (const k of COUNTERS) c[k] = Number(row[k] ?? 0);
  return c;
}

/** sum(column) as a double on both databases (PostgreSQL's sum of bigint is numeric, read as text). */
// The query list needs no histogram: summing 21 fewer columns per row keeps it cheaper.
const sums = COUNTERS.filter((c) => !c.startsWith('fc_')).map((c) =>
  sql<number>`cast(coalesce(sum(${sql.ref(c)}), 0) as double precision)`.as(c),
);

export class KyselyAnalyticsStore implements AnalyticsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsAdvisoryLocks'>,
  ) {}

  async aggregateNext(limit: number, fold: Folder, startedAt: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks) {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(${ANALYTICS_LOCK}, hashtext(current_schema())) as locked`.execute(trx);
        if (!rows[0]?.locked) return null;
      }
      const items = await this.claim(trx, limit);
      if (items.length > 0) {
        const plan = fold(items, await this.states(trx, items));
        await this.apply(trx, plan);
        const ids = items.map((i) => i.id);
        for (let i = 0; i < ids.length; i += KEY_CHUNK) {
          await trx
            .updateTable('feedback_items')
            .set({ analytics_done: 1 })
            .where('id', 'in', ids.slice(i, i + KEY_CHUNK))
            .execute();
        }
      }
      if (items.length < limit) {
        await trx
          .insertInto('analytics_progress')
          .values({ id: 1, fresh_as_of: startedAt })
          .onConflict((oc) => oc.column('id').doUpdateSet({ fresh_as_of: startedAt }))
          .execute();
      }
      return items.length;
    });
  }

  private async claim(trx: Trx, limit: number): Promise<AnalyticsItem[]> {
    const rows = await trx
      .selectFrom('feedback_items')
      .select([
        'id',
        'session_id',
        'query_id',
        'query_hash',
        'result_id',
        'user_action',
        'event_time',
        'position',
        'device_type',
        'search_type',
        'language',
        'category',
        'extra_metadata',
      ])
      .where('analytics_done', '=', 0)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      sessionId: r.session_id,
      queryId: r.query_id,
      queryHash: r.query_hash,
      resultId: r.result_id,
      userAction: r.user_action,
      eventTime: Number(r.event_time),
      position: r.position,
      deviceType: r.device_type,
      searchType: r.search_type,
      language: r.language,
      category: r.category,
      ...recognisedKeys(r.extra_metadata),
    }));
  }

  private async states(trx: Trx, items: AnalyticsItem[]): Promise<Map<string, EntityState>> {
    const keys = new Set<string>();
    for (const i of items) {
      keys.add(`q:${i.queryId}`);
      keys.add(`s:${i.sessionId}`);
      if (i.queryHash !== null) keys.add(`p:${i.sessionId}\n${i.queryHash}`);
    }
    const all = [...keys];
    const known = new Map<string, EntityState>();
    for (let i = 0; i < all.length; i += KEY_CHUNK) {
      const rows = await trx
        .selectFrom('analytics_entities')
        .select(['key', 'state'])
        .where('key', 'in', all.slice(i, i + KEY_CHUNK))
        .execute();
      for (const r of rows) known.set(r.key, JSON.parse(r.state) as EntityState);
    }
    return known;
  }

  private async apply(trx: Trx, plan: FoldPlan): Promise<void> {
    const states = [...plan.states].map(([key, s]) => ({ key, state: JSON.stringify(s) }));
    for (let i = 0; i < states.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_entities')
        .values(states.slice(i, i + KEY_CHUNK))
        .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ state: eb.ref('excluded.state') })))
        .execute();
    }
    const add = (table: string) => addExcluded(table, COUNTERS);
    const totals = plan.rows.filter((r) => r.key.queryHash === null);
    const perQuery = plan.rows.filter((r) => r.key.queryHash !== null);
    for (let i = 0; i < totals.length; i += ROW_CHUNK) {
      await trx
        .insertInto('analytics_total_hours')
        .values(
          totals
            .slice(i, i + ROW_CHUNK)
            .map((r) => ({ dimension: r.key.dimension, dim_value: r.key.value, hour: r.key.hour, ...r.counters })),
        )
        .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'hour']).doUpdateSet(add('analytics_total_hours')))
        .execute();
    }
    for (let i = 0; i < perQuery.length; i += ROW_CHUNK) {
      await trx
        .insertInto('analytics_query_hours')
        .values(
          perQuery.slice(i, i + ROW_CHUNK).map((r) => ({
            dimension: r.key.dimension,
            dim_value: r.key.value,
            hour: r.key.hour,
            query_hash: r.key.queryHash!,
            ...r.counters,
          })),
        )
        .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'hour', 'query_hash']).doUpdateSet(add('analytics_query_hours')))
        .execute();
    }
    for (let i = 0; i < plan.results.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_result_hours')
        .values(
          plan.results.slice(i, i + KEY_CHUNK).map((r) => ({
            query_hash: r.queryHash,
            hour: r.hour,
            result_id: r.resultId,
            position: r.position,
            impressions: r.impressions,
            clicks: r.clicks,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['query_hash', 'hour', 'result_id', 'position'])
            .doUpdateSet(addExcluded('analytics_result_hours', ['impressions', 'clicks'])),
        )
        .execute();
    }
    const texts = [...plan.texts].map(([hash, t]) => ({ query_hash: hash, query_text: t.text, source_id: t.sourceId }));
    for (let i = 0; i < texts.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_query_texts')
        .values(texts.slice(i, i + KEY_CHUNK))
        .onConflict((oc) =>
          oc
            .column('query_hash')
            .doUpdateSet({ query_text: sql`excluded.query_text`, source_id: sql`excluded.source_id` })
            .where(sql<boolean>`excluded.source_id < analytics_query_texts.source_id`),
        )
        .execute();
    }
  }

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
    return rows.map((r) => ({ hour: Number(r.hour), counters: countersOf(r) }));
  }

  async queryTotals(slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
    if (options.hashes && options.hashes.length === 0) return [];
    let q = this.db
      .selectFrom('analytics_query_hours')
      .select('query_hash')
      .select(sums)
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('hour', '>=', slice.fromHour)
      .where('hour', '<', slice.toHour)
      .groupBy('query_hash');
    if (options.hashes) q = q.where('query_hash', 'in', [...options.hashes]);
    else if (options.minSearches > 0) q = q.having(sql`sum(searches)`, '>=', options.minSearches);
    const rows = await q.execute();
    return rows.map((r) => ({ queryHash: r.query_hash, counters: countersOf(r) }));
  }

  async queryHours(slice: Slice, hashes: readonly string[]): Promise<(HourCounters & { queryHash: string })[]> {
    if (hashes.length === 0) return [];
    const out: (HourCounters & { queryHash: string })[] = [];
    for (let i = 0; i < hashes.length; i += KEY_CHUNK) {
      const rows = await this.db
        .selectFrom('analytics_query_hours')
        .selectAll()
        .where('query_hash', 'in', hashes.slice(i, i + KEY_CHUNK))
        .where('dimension', '=', slice.dimension)
        .where('dim_value', '=', slice.value)
        .where('hour', '>=', slice.fromHour)
        .where('hour', '<', slice.toHour)
        .orderBy('hour')
        .execute();
      for (const r of rows) out.push({ queryHash: r.query_hash, hour: Number(r.hour), counters: countersOf(r) });
    }
    return out;
  }

  async distinctQueries(slice: Slice): Promise<number> {
    // count(*) over a GROUP BY (hashed on PostgreSQL, where count(distinct …) sorts), from the
    // (dimension, value, query, hour) index: no table row is needed.
    const row = await this.db
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

  async results(queryHash: string, fromHour: number, toHour: number): Promise<ResultCounts[]> {
    const rows = await this.db
      .selectFrom('analytics_result_hours')
      .select([
        'result_id',
        'position',
        sql<number>`cast(sum(impressions) as double precision)`.as('impressions'),
        sql<number>`cast(sum(clicks) as double precision)`.as('clicks'),
      ])
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
    const out = new Map<string, string>();
    for (let i = 0; i < hashes.length; i += KEY_CHUNK) {
      const rows = await this.db
        .selectFrom('analytics_query_texts')
        .select(['query_hash', 'query_text'])
        .where('query_hash', 'in', hashes.slice(i, i + KEY_CHUNK))
        .execute();
      for (const r of rows) out.set(r.query_hash, r.query_text);
    }
    return out;
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
