import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { AnalyticsReadsStore, QueryCounters, Slice } from './reads.store.js';
import { HOUR_MS, type Counter } from '../model/counters.js';
import { LIST_COUNTERS, PREVIOUS_COUNTERS, ZERO, combine, countersOf, marked, spanColumns, zero } from './span-sums.js';
import { planRange, type RangePlan } from '../fold/spans.js';

/**
 * Per-query sums over a window for the queries page, from the span totals (analytics_query_windows)
 * and the hour rows at their edges: the reads the list and the distinct count share.
 */

export type Db = Kysely<Database> | Transaction<Database>;
type TotalsOptions = Parameters<AnalyticsReadsStore['queryTotals']>[1];

/** Filters of span rows: given queries, or those with at least `minSearches` searches (or among `orHashes`), or those another span's filter selects. */
interface WindowFilter {
  hashes?: readonly string[];
  minSearches?: number;
  orHashes?: readonly string[];
  inSpan?: { span: number; minSearches: number; orHashes: readonly string[] };
}

/** sum(column) as a double on both databases (PostgreSQL's sum of bigint is numeric, read as text). */
const sums = [
  ...LIST_COUNTERS.map((c) => sql<number>`cast(coalesce(sum(${sql.ref(c)}), 0) as double precision)`.as(c)),
  sql<number>`count(*)`.as('hour_rows'),
];

export class KyselyQueryTotals {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly capabilities: Pick<DatabaseCapabilities, 'supportsAdvisoryLocks'>,
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
  private atLeast(minSearches: number, orHashes: readonly string[], table?: string) {
    const column = (c: string) => (table ? `${table}.${c}` : c);
    if (orHashes.length === 0) return sql<boolean>`${sql.ref(column('searches'))} >= ${minSearches}`;
    // SQLite answers the OR from two indexes (a row set of keys, then a lookup per row): slower
    // than reading the span's rows in key order and testing each (`+` keeps the index out).
    const searches = this.capabilities.supportsAdvisoryLocks ? sql.ref(column('searches')) : sql`+${sql.ref(column('searches'))}`;
    return sql<boolean>`(${searches} >= ${minSearches} or ${this.inList(column('query_hash'), orHashes)})`;
  }

  async queryTotals(slice: Slice, options: TotalsOptions): Promise<QueryCounters[]> {
    if (options.hashes && options.hashes.length === 0) return [];
    return this.snapshot((db) => this.spanTotals(db, slice, options));
  }

  async queryTotalsWithPrevious(
    slice: Slice,
    previous: { fromHour: number; toHour: number },
    options: { minSearches: number; columns?: readonly Counter[] },
  ): Promise<{ current: QueryCounters[]; previous: QueryCounters[] }> {
    return this.snapshot(async (db) => {
      const before: Slice = { ...slice, ...previous };
      const anchor = await this.anchor(db);
      const now = planRange(anchor, slice.fromHour, slice.toHour);
      const then = planRange(anchor, before.fromHour, before.toHour);
      if (!now || !then) {
        const current = await this.spanTotals(db, slice, options);
        const hashes = current.map((r) => r.queryHash);
        return { current, previous: hashes.length === 0 ? [] : await this.spanTotals(db, before, { minSearches: 0, hashes }) };
      }
      const edges = async (plan: RangePlan) => {
        const out: { sign: 1 | -1; rows: QueryCounters[] }[] = [];
        for (const e of plan.edges)
          out.push({
            sign: e.sign,
            rows: await this.hourTotals(db, { ...slice, fromHour: e.fromHour, toHour: e.toHour }, { minSearches: 0 }),
          });
        return out;
      };
      const nowEdges = await edges(now);
      const thenEdges = await edges(then);
      // Both windows' spans in one statement, for the queries the current window can list (those
      // its added span's filter selects: as in spanTotals); the previous window's sums are then
      // kept for the queries listed only.
      const columns = spanColumns(options.columns);
      const filtering = options.minSearches > 0;
      const orHashes = filtering ? [...new Set(nowEdges.filter((e) => e.sign > 0).flatMap((e) => e.rows.map((r) => r.queryHash)))] : [];
      const filter = filtering && orHashes.length <= 20_000 ? { minSearches: options.minSearches, orHashes } : undefined;
      // The previous window's spans: impressions and clicks only (what the sort key needs).
      const others = [...new Set([now.sub, then.add, then.sub])]
        .filter((x) => x > 0 && x !== now.add)
        .map((span) => ({ span, columns: span === now.sub ? columns : PREVIOUS_COUNTERS }));
      const bySpan = await this.spanRows(db, { span: now.add, columns }, others, slice, filter);
      const sub = (span: number) => (span === 0 ? [] : bySpan.get(span)!);
      const current = marked(combine(bySpan.get(now.add)!, nowEdges, sub(now.sub)), columns).filter(
        (r) => r.counters.searches >= options.minSearches,
      );
      const listed = new Set(current.map((r) => r.queryHash));
      // A query can be listed for searches in an added edge alone, with no row in the added span
      // (so none read with it) but rows in the previous window's spans: those are read by name.
      const read = new Set(bySpan.get(now.add)!.map((r) => r.queryHash));
      const missing = [...listed].filter((h) => !read.has(h));
      const only = (rows: QueryCounters[]) => rows.filter((r) => listed.has(r.queryHash));
      const spanOf = async (span: number) =>
        span === 0
          ? []
          : [...only(bySpan.get(span)!), ...(missing.length > 0 ? await this.windowRows(db, span, slice, { hashes: missing }) : [])];
      const previousRows = combine(
        await spanOf(then.add),
        thenEdges.map((e) => ({ sign: e.sign, rows: only(e.rows) })),
        await spanOf(then.sub),
      );
      // (spans read in full for the current window add their other counters: left out)
      const previousOnly = previousRows.map((r) => ({
        ...r,
        counters: { ...ZERO, impressions: r.counters.impressions, clicks: r.counters.clicks },
      }));
      return { current, previous: previousOnly };
    });
  }

  /**
   * Rows of span `add` of the slice's dimension value that pass `filter` (all without one) and, in
   * the same statement, the rows of the `others` spans of the same queries (their `columns`, the
   * other counters left at 0): one left join per span on the primary key, so each query's spans
   * come as one row.
   */
  private async spanRows(
    db: Db,
    add: { span: number; columns: readonly Counter[] },
    others: { span: number; columns: readonly Counter[] }[],
    slice: Slice,
    filter: { minSearches: number; orHashes: readonly string[] } | undefined,
  ): Promise<Map<number, QueryCounters[]>> {
    const spans = [{ ...add, table: 'a' }, ...others.map((o, i) => ({ ...o, table: `j${i + 1}` }))];
    // Column names made once (not per row): n{i} hour rows, c{i}_{k} the k-th counter of span i.
    const names = spans.map((x, i) => ({ rows: `n${i}`, counters: x.columns.map((c, k) => [c, `c${i}_${k}`] as const) }));
    const columns = spans.flatMap((x, i) => [
      sql`${sql.ref(`${x.table}.hour_rows`)}`.as(names[i]!.rows),
      ...names[i]!.counters.map(([c, name]) => sql`${sql.ref(`${x.table}.${c}`)}`.as(name)),
    ]);
    let q = db
      .selectFrom('analytics_query_windows as a')
      .select(sql.ref<string>('a.query_hash').as('query_hash'))
      .select(columns)
      .where(sql.ref('a.span'), '=', add.span / HOUR_MS)
      .where(sql.ref('a.dimension'), '=', slice.dimension)
      .where(sql.ref('a.dim_value'), '=', slice.value);
    for (const x of spans.slice(1)) {
      q = q.leftJoin(sql<object>`analytics_query_windows`.as(x.table), (join) =>
        join
          .on(sql.ref(`${x.table}.span`), '=', x.span / HOUR_MS)
          .on(sql.ref(`${x.table}.dimension`), '=', slice.dimension)
          .on(sql.ref(`${x.table}.dim_value`), '=', slice.value)
          .onRef(sql.ref(`${x.table}.query_hash`), '=', sql.ref('a.query_hash')),
      );
    }
    if (filter) q = q.where(this.atLeast(filter.minSearches, filter.orHashes, 'a'));
    const rows = (await q.execute()) as Record<string, unknown>[];
    const out = new Map<number, QueryCounters[]>(spans.map((x) => [x.span, []]));
    for (const r of rows) {
      const queryHash = String(r.query_hash);
      for (const [i, x] of spans.entries()) {
        const n = r[names[i]!.rows];
        if (n == null) continue;
        const counters = zero();
        for (const [c, name] of names[i]!.counters) counters[c] = Number(r[name]);
        out.get(x.span)!.push({ queryHash, counters, rows: Number(n) });
      }
    }
    return out;
  }

  /** queryTotals inside a snapshot (SQLite has one connection: a nested transaction would wait for itself). */
  protected async spanTotals(db: Db, slice: Slice, options: TotalsOptions): Promise<QueryCounters[]> {
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
    const columns = spanColumns(options.columns);
    const added = await this.windowRows(db, plan.add, slice, filter, columns);
    const subtracted =
      plan.sub === 0
        ? []
        : await this.windowRows(
            db,
            plan.sub,
            slice,
            filter.minSearches !== undefined ? { inSpan: { span: plan.add, minSearches: filter.minSearches, orHashes } } : filter,
            columns,
          );
    const list = marked(combine(added, edges, subtracted), columns);
    return options.hashes !== undefined ? list : list.filter((r) => r.counters.searches >= options.minSearches);
  }

  /** Reads that must see one state of the aggregates (the fold may commit between statements). */
  protected async snapshot<T>(run: (db: Db) => Promise<T>): Promise<T> {
    if (!this.capabilities.supportsAdvisoryLocks) return this.db.transaction().execute(run);
    return this.db.transaction().setIsolationLevel('repeatable read').execute(run);
  }

  protected async anchor(db: Db): Promise<number | null> {
    const row = await db.selectFrom('analytics_progress').select('window_anchor').where('id', '=', 1).executeTakeFirst();
    return row?.window_anchor == null ? null : Number(row.window_anchor);
  }

  /** Span rows (counters without the histogram) of the slice's dimension value. */
  protected async windowRows(
    db: Db,
    span: number,
    slice: Slice,
    filter: WindowFilter,
    columns: readonly Counter[] = LIST_COUNTERS,
  ): Promise<QueryCounters[]> {
    const base = db
      .selectFrom('analytics_query_windows')
      .select(['query_hash', 'hour_rows', ...columns])
      .where('span', '=', span / HOUR_MS)
      .where('dimension', '=', slice.dimension)
      .where('dim_value', '=', slice.value);
    const map = (rows: Record<string, unknown>[]) =>
      rows.map((r) => ({ queryHash: String(r.query_hash), counters: countersOf(r, columns), rows: Number(r.hour_rows) }));
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
  protected async hourTotals(db: Db, slice: Slice, options: { minSearches: number; hashes?: readonly string[] }): Promise<QueryCounters[]> {
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
    return rows.map((r) => ({ queryHash: r.query_hash, counters: countersOf(r, LIST_COUNTERS), rows: Number(r.hour_rows) }));
  }
}
