import { KyselyAnalyticsFoldStore } from '../../../src/analytics/store/fold.kysely-store.js';
import { planFold } from '../../../src/analytics/fold/fold-plan.js';
import { COUNTERS, HOUR_MS, type AnalyticsItem } from '../../../src/analytics/model/counters.js';
import { mulberry32 } from '../../../src/random/index.js';
import { SPANS_MS } from '../../../src/analytics/fold/spans.js';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import { insertBatches } from '../../../src/storage/batch-write.js';
import { toFeedbackRow } from '../../../src/storage/tables/feedback-row.js';
import { analyticsItem } from './analytics-item.js';

export { analyticsItem };

/**
 * `n` seeded random items with ids from `offset`: 400 searches over 150 sessions and 40 query
 * hashes, every action, two devices, three languages, 48 hours from `base`.
 */
export function generateItems(n: number, seed: number, offset: number, base: number): AnalyticsItem[] {
  const random = mulberry32(seed);
  const of = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const search = Math.floor(random() * 400);
    return {
      id: `ID${String(offset + i).padStart(8, '0')}`,
      sessionId: `s${search % 150}`,
      queryId: `q${search}`,
      queryHash: `h${search % 40}`,
      resultId: `r${Math.floor(random() * 8)}`,
      userAction: of(['impression', 'impression', 'impression', 'click', 'purchase', 'search']),
      eventTime: base + Math.floor(random() * 48 * HOUR_MS),
      position: 1 + Math.floor(random() * 12),
      deviceType: of(['mobile', 'desktop']),
      searchType: null,
      language: of(['en', 'de', null]),
      category: null,
      queryText: of([null, `text ${search % 40}`]),
      resultCount: of([null, 0, 10]),
    };
  });
}

/** The feedback_items row ingestion stores for an item. */
export function itemRow(it: AnalyticsItem) {
  return toFeedbackRow({
    id: it.id,
    submissionId: it.id,
    seq: 0,
    sessionId: it.sessionId,
    queryId: it.queryId,
    rating: null,
    userAction: it.userAction,
    eventTime: it.eventTime,
    receivedAt: it.eventTime,
    resultId: it.resultId,
    queryHash: it.queryHash,
    engagementType: null,
    searchType: it.searchType,
    position: it.position,
    timeToClick: null,
    deviceType: it.deviceType,
    viewportWidth: null,
    viewportHeight: null,
    scrollDepth: null,
    dwellTime: null,
    category: it.category,
    language: it.language,
    extraMetadata:
      it.queryText === null && it.resultCount === null
        ? null
        : JSON.stringify({
            ...(it.queryText !== null ? { queryText: it.queryText } : {}),
            ...(it.resultCount !== null ? { resultCount: it.resultCount } : {}),
          }),
  });
}

/** Writes items straight into feedback_items (as ingestion stores them), in the order given. */
export async function insertItems(database: DatabaseHandle, items: readonly AnalyticsItem[]): Promise<void> {
  await insertBatches(items.map(itemRow), (rows) => database.db.insertInto('feedback_items').values(rows).execute());
}

const round = (n: number) => Math.round(n * 1e9) / 1e9;

function rowText(table: 't' | 'q', r: Record<string, unknown>): string | null {
  const counters = COUNTERS.map((c) => round(Number(r[c])));
  if (counters.every((v) => v === 0)) return null;
  return [table, r.query_hash ?? '', r.dimension, r.dim_value, Number(r.hour), ...counters].join('|');
}

/** Every non-zero aggregate row, results row and display text, as sorted text lines. */
export async function readAggregates(database: DatabaseHandle): Promise<string[]> {
  const lines: string[] = [];
  for (const r of await database.db.selectFrom('analytics_total_hours').selectAll().execute()) {
    const t = rowText('t', r);
    if (t) lines.push(t);
  }
  for (const r of await database.db.selectFrom('analytics_query_hours').selectAll().execute()) {
    const t = rowText('q', r);
    if (t) lines.push(t);
  }
  for (const r of await database.db.selectFrom('analytics_result_slices').selectAll().execute()) {
    lines.push(
      ['r', r.dimension, r.dim_value, r.query_hash, Number(r.hour), r.result_id, r.position, Number(r.impressions), Number(r.clicks)].join(
        '|',
      ),
    );
  }
  for (const r of await database.db.selectFrom('analytics_query_texts').selectAll().execute())
    lines.push(['x', r.query_hash, r.query_text].join('|'));
  return lines.sort();
}

/** The same lines from one fold over every item at once: the from-scratch recomputation. */
export function fromScratch(items: readonly AnalyticsItem[]): string[] {
  const plan = planFold(
    [...items].sort((a, b) => (a.id < b.id ? -1 : 1)),
    new Map(),
  );
  const lines: string[] = [];
  for (const row of plan.rows) {
    const k = row.key;
    const t = rowText(k.queryHash === null ? 't' : 'q', {
      ...row.counters,
      query_hash: k.queryHash,
      dimension: k.dimension,
      dim_value: k.value,
      hour: k.hour,
    });
    if (t) lines.push(t);
  }
  for (const r of plan.results) {
    if (r.impressions !== 0 || r.clicks !== 0)
      lines.push(['r', r.dimension, r.value, r.queryHash, r.hour, r.resultId, r.position, r.impressions, r.clicks].join('|'));
  }
  for (const [hash, t] of plan.texts) lines.push(['x', hash, t.text].join('|'));
  return lines.sort();
}

/** How many feedback items wait to be folded (the store's own count: a flag or a cursor, per database). */
export async function backlogSize(database: DatabaseHandle): Promise<number> {
  return new KyselyAnalyticsFoldStore(database.db, database.capabilities).backlogSize();
}

export async function clearAnalytics(database: DatabaseHandle): Promise<void> {
  for (const table of [
    'analytics_entities',
    'analytics_total_hours',
    'analytics_query_hours',
    'analytics_query_texts',
    'analytics_query_windows',
    'analytics_query_days',
    'analytics_total_days',
    'analytics_result_slices',
  ] as const) {
    await database.db.deleteFrom(table).execute();
  }
  await database.db.updateTable('analytics_progress').set({ window_anchor: null, fresh_as_of: null, folded_through: 0 }).execute();
  // PostgreSQL's transaction-id cursor (migration 0095; SQLite has no such columns).
  if (!database.capabilities.commitOrderedRowids)
    await database.db.updateTable('analytics_progress').set({ folded_xid: null, folded_id: null }).execute();
  await database.db.deleteFrom('feedback_items').execute();
}

/** Every span row (analytics_query_windows) with hour rows, as sorted text lines. */
export async function readWindows(database: DatabaseHandle): Promise<string[]> {
  const rows = await database.db.selectFrom('analytics_query_windows').selectAll().execute();
  return rows
    .filter((r) => Number(r.hour_rows) !== 0)
    .map((r) =>
      ['w', Number(r.span), r.query_hash, r.dimension, r.dim_value, Number(r.hour_rows), ...COUNTERS.map((c) => round(Number(r[c])))].join(
        '|',
      ),
    )
    .sort();
}

/**
 * The span rows recomputed from the stored hour rows at `anchor`: analytics_query_hours of
 * [anchor − span, anchor) summed per query, `hour_rows` counting them (the hour rows themselves
 * equal a from-scratch fold, which incremental.property.test.ts holds).
 */
export async function windowsFromHours(database: DatabaseHandle, anchor: number): Promise<string[]> {
  const hours = await database.db.selectFrom('analytics_query_hours').selectAll().execute();
  const sums = new Map<string, { hourRows: number; counters: number[] }>();
  for (const span of SPANS_MS) {
    for (const row of hours) {
      const hour = Number(row.hour);
      if (hour < anchor - span || hour >= anchor) continue;
      const key = [span / 3_600_000, row.query_hash, row.dimension, row.dim_value].join('|');
      const s = sums.get(key) ?? { hourRows: 0, counters: COUNTERS.map(() => 0) };
      s.hourRows += 1;
      COUNTERS.forEach((c, i) => (s.counters[i]! += Number(row[c])));
      sums.set(key, s);
    }
  }
  return [...sums].map(([key, s]) => ['w', key, s.hourRows, ...s.counters.map(round)].join('|')).sort();
}

/** Distinct queries per hour and per day as stored (analytics_total_hours.queries, analytics_total_days). */
export async function readBucketQueries(database: DatabaseHandle): Promise<string[]> {
  const hours = await database.db.selectFrom('analytics_total_hours').select(['dimension', 'dim_value', 'hour', 'queries']).execute();
  const days = await database.db.selectFrom('analytics_total_days').selectAll().execute();
  return [
    ...hours
      .filter((r) => Number(r.queries) !== 0)
      .map((r) => ['h', r.dimension, r.dim_value, Number(r.hour), Number(r.queries)].join('|')),
    ...days.filter((r) => Number(r.queries) !== 0).map((r) => ['d', r.dimension, r.dim_value, Number(r.day), Number(r.queries)].join('|')),
  ].sort();
}

/** The same counts recomputed from the stored query hour rows. */
export async function bucketQueriesFromHours(database: DatabaseHandle): Promise<string[]> {
  const rows = await database.db.selectFrom('analytics_query_hours').select(['dimension', 'dim_value', 'hour', 'query_hash']).execute();
  const hours = new Map<string, number>();
  const days = new Map<string, Set<string>>();
  for (const r of rows) {
    const hk = ['h', r.dimension, r.dim_value, Number(r.hour)].join('|');
    hours.set(hk, (hours.get(hk) ?? 0) + 1);
    const dk = ['d', r.dimension, r.dim_value, Math.floor(Number(r.hour) / 86_400_000) * 86_400_000].join('|');
    days.set(dk, (days.get(dk) ?? new Set()).add(r.query_hash));
  }
  return [...[...hours].map(([k, n]) => `${k}|${n}`), ...[...days].map(([k, s]) => `${k}|${s.size}`)].sort();
}
