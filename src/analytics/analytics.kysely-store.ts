import { sql, type Kysely, type Transaction } from 'kysely';
import { addExcluded } from '../storage/additive-upsert.js';
import type { DatabaseCapabilities } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { AnalyticsStore, Folder, HourCounters, QueryCounters, ResultCounts, Slice } from './analytics.store.js';
import {
  COUNTERS,
  HOUR_MS,
  emptyCounters,
  entityKeys,
  recognisedKeys,
  type AnalyticsItem,
  type Counters,
  type EntityState,
  type FoldPlan,
  type RowDelta,
} from './fold.js';
import { DAY_MS } from './figures.js';
import { WINDOW_SPANS_MS, planRange, windowAnchorAt, type SignedRange } from './windows.js';

// Names the analytics lock among PostgreSQL advisory locks; the schema is the second key, as for attribution.
const ANALYTICS_LOCK = 774_201_012;
const ROW_CHUNK = 200;
const KEY_CHUNK = 500;

type Trx = Transaction<Database>;
type Db = Kysely<Database> | Trx;

const WINDOW_COLUMNS = ['hour_rows', ...COUNTERS] as const;
const windowKey = (span: number, r: RowDelta) => `${span}\u0001${r.key.dimension}\u0001${r.key.value}\u0001${r.key.queryHash}`;
const signed = (a: number, b: number, sign: 1 | -1): SignedRange =>
  a <= b ? { fromHour: a, toHour: b, sign } : { fromHour: b, toHour: a, sign: sign === 1 ? -1 : 1 };

/** Filters of span rows: given queries, or those with at least `minSearches` searches (or among `orHashes`), or those another span's filter selects. */
interface WindowFilter {
  hashes?: readonly string[];
  minSearches?: number;
  orHashes?: readonly string[];
  inSpan?: { span: number; minSearches: number; orHashes: readonly string[] };
}

function countersOf(row: Record<string, unknown>): Counters {
  const c = emptyCounters();
  for (const k of COUNTERS) c[k] = Number(row[k] ?? 0);
  return c;
}

/** sum(column) as a double on both databases (PostgreSQL's sum of bigint is numeric, read as text). */
// The query list needs no histogram: summing 21 fewer columns per row keeps it cheaper.
const LIST_COUNTERS = COUNTERS.filter((c) => !c.startsWith('fc_'));
const sums = [
  ...LIST_COUNTERS.map((c) => sql<number>`cast(coalesce(sum(${sql.ref(c)}), 0) as double precision)`.as(c)),
  sql<number>`count(*)`.as('hour_rows'),
];

export class KyselyAnalyticsStore implements AnalyticsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsAdvisoryLocks'>,
  ) {}

  /**
   * `column IN (the list)` as one parameter however long the list: a JSON array read by json_each
   * on SQLite, a text[] on PostgreSQL (no statement per 500 keys, no thousands of placeholders).
   */
  private inList(column: string, list: readonly string[]) {
    return this.capabilities.supportsAdvisoryLocks
      ? sql<boolean>`${sql.ref(column)} = any(${[...list]}::text[])`
      : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(list)}))`;
  }

  /** Span rows with at least `minSearches` searches, or of the queries listed. */
  private atLeast(minSearches: number, orHashes: readonly string[]) {
    return orHashes.length > 0
      ? sql<boolean>`(${sql.ref('searches')} >= ${minSearches} or ${this.inList('query_hash', orHashes)})`
      : sql<boolean>`${sql.ref('searches')} >= ${minSearches}`;
  }

  async aggregateNext(limit: number, fold: Folder, startedAt: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks) {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(${ANALYTICS_LOCK}, hashtext(current_schema())) as locked`.execute(trx);
        if (!rows[0]?.locked) return null;
      }
      const progress = await trx.selectFrom('analytics_progress').select('window_anchor').where('id', '=', 1).executeTakeFirst();
      const anchor = progress?.window_anchor == null ? null : Number(progress.window_anchor);
      const items = await this.claim(trx, limit);
      if (items.length > 0) {
        const known = await this.states(trx, items);
        const plan = fold(items, known);
        await this.apply(trx, plan, anchor);
        await this.writeStates(trx, items, plan, known);
        const ids = items.map((i) => i.id);
        for (let i = 0; i < ids.length; i += KEY_CHUNK) {
          await trx
            .updateTable('feedback_items')
            .set({ analytics_done: 1 })
            .where('id', 'in', ids.slice(i, i + KEY_CHUNK))
            .execute();
        }
      }
      const nextAnchor = windowAnchorAt(startedAt);
      if (nextAnchor !== anchor) await this.moveWindows(trx, anchor, nextAnchor);
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

  private async claim(trx: Trx, limit: number): Promise<(AnalyticsItem & { receivedAt: number })[]> {
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
        'received_at',
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
      receivedAt: Number(r.received_at),
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
    const rows = [...received].map(([key, last]) => ({
      key,
      state: JSON.stringify(plan.states.get(key) ?? known.get(key)),
      last_received: last,
    }));
    for (let i = 0; i < rows.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_entities')
        .values(rows.slice(i, i + KEY_CHUNK))
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            state: sql`excluded.state`,
            last_received: sql`case when excluded.last_received > analytics_entities.last_received then excluded.last_received else analytics_entities.last_received end`,
          }),
        )
        .execute();
    }
  }

  /**
   * Removes up to `limit` entity states whose latest item was received before `cutoff` (those
   * items are past retention), under the analytics lock. Returns how many, or null when another
   * instance holds the lock.
   */
  async pruneEntities(cutoff: number, limit: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks) {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(${ANALYTICS_LOCK}, hashtext(current_schema())) as locked`.execute(trx);
        if (!rows[0]?.locked) return null;
      }
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
    // One upsert per chunk; `upserts` (0 on insert, +1 on each conflict) tells which rows it created.
    const created = new Set<string>();
    for (let i = 0; i < perQuery.length; i += ROW_CHUNK) {
      const rows = await trx
        .insertInto('analytics_query_hours')
        .values(
          perQuery.slice(i, i + ROW_CHUNK).map((r) => ({
            dimension: r.key.dimension,
            dim_value: r.key.value,
            hour: r.key.hour,
            query_hash: r.key.queryHash!,
            ...r.counters,
            upserts: 0,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['dimension', 'dim_value', 'hour', 'query_hash'])
            .doUpdateSet({ ...add('analytics_query_hours'), upserts: sql`analytics_query_hours.upserts + 1` }),
        )
        .returning(['dimension', 'dim_value', 'hour', 'query_hash', 'upserts'])
        .execute();
      for (const r of rows) {
        if (Number(r.upserts) === 0) created.add(`${r.dimension}\u0001${r.dim_value}\u0001${Number(r.hour)}\u0001${r.query_hash}`);
      }
    }
    await this.countCreatedRows(trx, created);
    await this.addToWindows(trx, perQuery, created, anchor);
    const allResults = plan.results.filter((r) => r.dimension === '');
    for (let i = 0; i < allResults.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_result_hours')
        .values(
          allResults.slice(i, i + KEY_CHUNK).map((r) => ({
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
    const sliced = plan.results.filter((r) => r.dimension !== '');
    for (let i = 0; i < sliced.length; i += KEY_CHUNK) {
      await trx
        .insertInto('analytics_result_slices')
        .values(
          sliced.slice(i, i + KEY_CHUNK).map((r) => ({
            dimension: r.dimension,
            dim_value: r.value,
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
            .columns(['dimension', 'dim_value', 'query_hash', 'hour', 'result_id', 'position'])
            .doUpdateSet(addExcluded('analytics_result_slices', ['impressions', 'clicks'])),
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

  /**
   * Adds the fold's per-query deltas of hours before the anchor (late events) to the spans that
   * hold those hours, counting the hour rows the deltas create (a query's first row in that hour).
   */
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
    const hourRows = [...perHour.values()];
    for (let i = 0; i < hourRows.length; i += ROW_CHUNK) {
      await trx
        .insertInto('analytics_total_hours')
        .values(hourRows.slice(i, i + ROW_CHUNK).map((h) => ({ ...h, ...emptyCounters() })))
        .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'hour']).doUpdateSet(addExcluded('analytics_total_hours', ['queries'])))
        .execute();
    }
    const markers = [...days.values()];
    const perDay = new Map<string, { dimension: string; dim_value: string; day: number; queries: number }>();
    for (let i = 0; i < markers.length; i += KEY_CHUNK) {
      const rows = await trx
        .insertInto('analytics_query_days')
        .values(markers.slice(i, i + KEY_CHUNK))
        .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'day', 'query_hash']).doNothing())
        .returning(['dimension', 'dim_value', 'day'])
        .execute();
      for (const r of rows) {
        const dk = `${r.dimension}\u0001${r.dim_value}\u0001${Number(r.day)}`;
        const d = perDay.get(dk) ?? { dimension: r.dimension, dim_value: r.dim_value, day: Number(r.day), queries: 0 };
        d.queries += 1;
        perDay.set(dk, d);
      }
    }
    const dayRows = [...perDay.values()];
    for (let i = 0; i < dayRows.length; i += ROW_CHUNK) {
      await trx
        .insertInto('analytics_total_days')
        .values(dayRows.slice(i, i + ROW_CHUNK))
        .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'day']).doUpdateSet(addExcluded('analytics_total_days', ['queries'])))
        .execute();
    }
  }

  /**
   * Adds the fold's per-query deltas of hours before the anchor (late events) to the spans that
   * hold those hours, counting the hour rows the deltas created.
   */
  private addToWindows(trx: Trx, perQuery: RowDelta[], created: ReadonlySet<string>, anchor: number | null): Promise<void> {
    if (anchor === null) return Promise.resolve();
    const longest = Math.max(...WINDOW_SPANS_MS);
    const late = perQuery.filter((r) => r.key.hour < anchor && r.key.hour >= anchor - longest);
    if (late.length === 0) return Promise.resolve();
    return this.writeWindowDeltas(trx, late, created, anchor);
  }

  private async writeWindowDeltas(trx: Trx, late: RowDelta[], created: ReadonlySet<string>, anchor: number): Promise<void> {
    const add = new Map<string, { span: number; dimension: string; dim_value: string; query_hash: string; hour_rows: number } & Counters>();
    for (const r of late) {
      const isNew = created.has(`${r.key.dimension}\u0001${r.key.value}\u0001${r.key.hour}\u0001${r.key.queryHash}`) ? 1 : 0;
      for (const span of WINDOW_SPANS_MS) {
        if (r.key.hour < anchor - span) continue;
        const k = windowKey(span, r);
        let w = add.get(k);
        if (!w) {
          w = {
            span: span / HOUR_MS,
            dimension: r.key.dimension,
            dim_value: r.key.value,
            query_hash: r.key.queryHash!,
            hour_rows: 0,
            ...emptyCounters(),
          };
          add.set(k, w);
        }
        w.hour_rows += isNew;
        for (const c of COUNTERS) w[c] += r.counters[c];
      }
    }
    const rows = [...add.values()];
    for (let i = 0; i < rows.length; i += ROW_CHUNK) {
      await trx
        .insertInto('analytics_query_windows')
        .values(rows.slice(i, i + ROW_CHUNK))
        .onConflict((oc) =>
          oc.columns(['span', 'dimension', 'dim_value', 'query_hash']).doUpdateSet(addExcluded('analytics_query_windows', WINDOW_COLUMNS)),
        )
        .execute();
    }
  }

  /**
   * Moves every span's end from `from` to `to`: adds the hours that enter it and subtracts those
   * that leave it (or rebuilds it from the hours when it moves by a span or more, or was never built).
   */
  private async moveWindows(trx: Trx, from: number | null, to: number): Promise<void> {
    for (const span of WINDOW_SPANS_MS) {
      const spanHours = span / HOUR_MS;
      if (from === null || Math.abs(to - from) >= span) {
        await trx.deleteFrom('analytics_query_windows').where('span', '=', spanHours).execute();
        await this.addHoursToWindow(trx, spanHours, { fromHour: to - span, toHour: to, sign: 1 });
      } else {
        await this.addHoursToWindow(trx, spanHours, signed(from, to, 1));
        await this.addHoursToWindow(trx, spanHours, signed(from - span, to - span, -1));
        // A query without hour rows left in the span has nothing in it (every counter is back to 0).
        await trx.deleteFrom('analytics_query_windows').where('span', '=', spanHours).where('hour_rows', '<=', 0).execute();
      }
    }
  }

  private async addHoursToWindow(trx: Trx, spanHours: number, range: SignedRange): Promise<void> {
    const sign = sql.lit(range.sign);
    const select = trx
      .selectFrom('analytics_query_hours')
      .select([
        sql.lit(spanHours).as('span'),
        'dimension',
        'dim_value',
        'query_hash',
        sql`${sign} * count(*)`.as('hour_rows'),
        ...COUNTERS.map((c) => sql`${sign} * sum(${sql.ref(c)})`.as(c)),
      ])
      .where('hour', '>=', range.fromHour)
      .where('hour', '<', range.toHour)
      .groupBy(['dimension', 'dim_value', 'query_hash']);
    await trx
      .insertInto('analytics_query_windows')
      .columns(['span', 'dimension', 'dim_value', 'query_hash', ...WINDOW_COLUMNS])
      .expression(select)
      .onConflict((oc) =>
        oc.columns(['span', 'dimension', 'dim_value', 'query_hash']).doUpdateSet(addExcluded('analytics_query_windows', WINDOW_COLUMNS)),
      )
      .execute();
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

  async queryTotals(slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
    if (options.hashes && options.hashes.length === 0) return [];
    return this.snapshot((db) => this.spanTotals(db, slice, options));
  }

  /** queryTotals inside a snapshot (SQLite has one connection: a nested transaction would wait for itself). */
  private async spanTotals(db: Db, slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
    const plan = planRange(await this.anchor(db), slice.fromHour, slice.toHour);
    if (!plan) return this.hourTotals(db, slice, options);
    const edges: { sign: 1 | -1; rows: QueryCounters[] }[] = [];
    for (const e of plan.edges) {
      const rows = await this.hourTotals(
        db,
        { ...slice, fromHour: e.fromHour, toHour: e.toHour },
        { minSearches: 0, hashes: options.hashes },
      );
      edges.push({ sign: e.sign, rows });
    }
    // With minSearches, only queries with that many searches in the span, or with searches in an
    // added edge, can reach it: the span rows of the others are not read.
    const filtering = !options.hashes && options.minSearches > 0;
    const orHashes = filtering ? [...new Set(edges.filter((e) => e.sign > 0).flatMap((e) => e.rows.map((r) => r.queryHash)))] : [];
    const filter: WindowFilter = options.hashes
      ? { hashes: options.hashes }
      : filtering && orHashes.length <= 20_000
        ? { minSearches: options.minSearches, orHashes }
        : {};
    const added = await this.windowRows(db, plan.add, slice, filter);
    const subtracted =
      plan.sub === 0
        ? []
        : await this.windowRows(
            db,
            plan.sub,
            slice,
            filter.minSearches !== undefined ? { inSpan: { span: plan.add, minSearches: filter.minSearches, orHashes } } : filter,
          );
    const out = new Map<string, QueryCounters>();
    const put = (r: QueryCounters, sign: number, create: boolean) => {
      let o = out.get(r.queryHash);
      if (!o) {
        if (!create) return;
        o = { queryHash: r.queryHash, counters: emptyCounters(), rows: 0 };
        out.set(r.queryHash, o);
      }
      o.rows += sign * r.rows;
      for (const c of LIST_COUNTERS) o.counters[c] += sign * r.counters[c];
    };
    for (const r of added) put(r, 1, true);
    for (const e of edges) for (const r of e.rows) put(r, e.sign, e.sign > 0);
    for (const r of subtracted) put(r, -1, false);
    const list = [...out.values()].filter(
      (r) => r.rows > 0 && (options.hashes !== undefined || r.counters.searches >= options.minSearches),
    );
    // Sums of doubles put back together: a query's reciprocal-rank sum can be off by an ulp.
    for (const r of list) r.counters.first_click_rr_sum = Math.round(r.counters.first_click_rr_sum * 1e9) / 1e9;
    return list;
  }

  /** Reads that must see one state of the aggregates (the fold may commit between statements). */
  private async snapshot<T>(run: (db: Db) => Promise<T>): Promise<T> {
    if (!this.capabilities.supportsAdvisoryLocks) return this.db.transaction().execute(run);
    return this.db.transaction().setIsolationLevel('repeatable read').execute(run);
  }

  private async anchor(db: Db): Promise<number | null> {
    const row = await db.selectFrom('analytics_progress').select('window_anchor').where('id', '=', 1).executeTakeFirst();
    return row?.window_anchor == null ? null : Number(row.window_anchor);
  }

  /** Span rows (counters without the histogram) of the slice's dimension value. */
  private async windowRows(db: Db, span: number, slice: Slice, filter: WindowFilter): Promise<QueryCounters[]> {
    const base = db
      .selectFrom('analytics_query_windows')
      .select(['query_hash', 'hour_rows', ...LIST_COUNTERS])
      .where('span', '=', span / HOUR_MS)
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value);
    const map = (rows: Record<string, unknown>[]) =>
      rows.map((r) => ({ queryHash: String(r.query_hash), counters: countersOf(r), rows: Number(r.hour_rows) }));
    if (filter.hashes) return map(await base.where(this.inList('query_hash', filter.hashes)).execute());
    if (filter.minSearches !== undefined) {
      const { minSearches, orHashes = [] } = filter;
      return map(await base.where(this.atLeast(minSearches, orHashes)).execute());
    }
    if (filter.inSpan) {
      const { span: other, minSearches, orHashes } = filter.inSpan;
      return map(
        await base
          .where('query_hash', 'in', (eb) =>
            eb
              .selectFrom('analytics_query_windows')
              .select('query_hash')
              .where('span', '=', other / HOUR_MS)
              .where('dimension', '=', slice.dimension)
              .where('dim_value', '=', slice.value)
              .where(this.atLeast(minSearches, orHashes)),
          )
          .execute(),
      );
    }
    return map(await base.execute());
  }

  /** Per-query sums of the slice's hour rows. */
  private async hourTotals(db: Db, slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
    if (options.hashes && options.hashes.length === 0) return [];
    let q = db
      .selectFrom('analytics_query_hours')
      .select('query_hash')
      .select(sums)
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value)
      .where('hour', '>=', slice.fromHour)
      .where('hour', '<', slice.toHour)
      .groupBy('query_hash');
    if (options.hashes) q = q.where(this.inList('query_hash', options.hashes));
    else if (options.minSearches > 0) q = q.having(sql`sum(searches)`, '>=', options.minSearches);
    const rows = await q.execute();
    return rows.map((r) => ({ queryHash: r.query_hash, counters: countersOf(r), rows: Number(r.hour_rows) }));
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
    const rows = dimension
      ? await this.db
          .selectFrom('analytics_result_slices')
          .select(sums)
          .where('dimension', '=', dimension.dimension)
          .where('dim_value', '=', dimension.value)
          .where('query_hash', '=', queryHash)
          .where('hour', '>=', fromHour)
          .where('hour', '<', toHour)
          .groupBy(['result_id', 'position'])
          .orderBy('result_id')
          .orderBy('position')
          .execute()
      : await this.db
          .selectFrom('analytics_result_hours')
          .select(sums)
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
