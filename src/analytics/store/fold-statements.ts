import { sql } from 'kysely';
import { addExcluded } from '../../storage/additive-upsert.js';
import type { ChunkedStatement, KeyedStatement } from '../../storage/batch-write.js';
import { COUNTERS } from '../model/counters.js';

/**
 * The analytics fold's statements (fold.kysely-store.ts runs them through FixedChunks):
 * the multi-row upserts of the hourly counters, results, texts, entity states and distinct-query
 * counts, and the key-list reads of a batch.
 */

// Rows per statement on SQLite, powers of two (see storage/batch-write.ts): 128 rows of ~36 counters or 512
// narrow rows stay far below both databases' limits on parameters per statement (32 766 and 65 535).
// PostgreSQL sends each column as one array and is not chunked by these.
const WIDE = 128;
const NARROW = 512;
const HOUR_COLUMNS = ['dimension', 'dim_value', 'hour'] as const;
const HOUR_TYPES = ['text', 'text', 'bigint'] as const;
const DIM_COLUMNS = ['dimension', 'dim_value'] as const;
const DIM_TYPES = ['text', 'text'] as const;
// The counters are whole numbers except the sum of first clicks' reciprocal ranks.
const COUNTER_TYPES = COUNTERS.map((c) => (c === 'first_click_rr_sum' ? 'double precision' : 'bigint'));

/**
 * A multi-row upsert that adds `added` to the row with the same `keys` (columns: the keys, then the
 * added counters, in that order; `types` theirs, the same way).
 */
function additiveUpsert(
  name: string,
  table: AdditiveTable,
  keys: readonly string[],
  added: readonly string[],
  types: readonly string[],
  maxChunk: number,
): ChunkedStatement {
  return {
    name,
    columns: [...keys, ...added],
    types,
    maxChunk,
    build: (trx, rows) =>
      rows(trx.insertInto(table)).onConflict((oc) => oc.columns(keys as never).doUpdateSet(addExcluded(table, added as never))),
  };
}
type AdditiveTable = 'analytics_total_hours' | 'analytics_result_slices' | 'analytics_total_days';

export const totalHours = additiveUpsert(
  'total_hours',
  'analytics_total_hours',
  HOUR_COLUMNS,
  COUNTERS,
  [...HOUR_TYPES, ...COUNTER_TYPES],
  WIDE,
);
// `upserts` (0 on insert, +1 on each conflict) in what the upsert returns tells which rows it created.
export const queryHours: ChunkedStatement = {
  name: 'query_hours',
  columns: [...HOUR_COLUMNS, 'query_hash', ...COUNTERS, 'upserts'],
  types: [...HOUR_TYPES, 'text', ...COUNTER_TYPES, 'bigint'],
  maxChunk: WIDE,
  build: (trx, rows) =>
    rows(trx.insertInto('analytics_query_hours'))
      .onConflict((oc) =>
        oc
          .columns(['dimension', 'dim_value', 'hour', 'query_hash'])
          .doUpdateSet({ ...addExcluded('analytics_query_hours', COUNTERS), upserts: sql`analytics_query_hours.upserts + 1` }),
      )
      .returning(['dimension', 'dim_value', 'hour', 'query_hash', 'upserts']),
};
export const resultSlices = additiveUpsert(
  'result_slices',
  'analytics_result_slices',
  [...DIM_COLUMNS, 'query_hash', 'hour', 'result_id', 'position'],
  ['impressions', 'clicks'],
  [...DIM_TYPES, 'text', 'bigint', 'text', 'integer', 'bigint', 'bigint'],
  NARROW,
);
export const queryTexts: ChunkedStatement = {
  name: 'query_texts',
  columns: ['query_hash', 'query_text', 'source_id'],
  types: ['text', 'text', 'text'],
  maxChunk: NARROW,
  build: (trx, rows) =>
    rows(trx.insertInto('analytics_query_texts')).onConflict((oc) =>
      oc
        .column('query_hash')
        .doUpdateSet({ query_text: sql`excluded.query_text`, source_id: sql`excluded.source_id` })
        .where(sql<boolean>`excluded.source_id < analytics_query_texts.source_id`),
    ),
};
export const entityStates: ChunkedStatement = {
  name: 'entities',
  columns: ['key', 'state', 'last_received'],
  types: ['text', 'text', 'bigint'],
  maxChunk: NARROW,
  build: (trx, rows) =>
    rows(trx.insertInto('analytics_entities')).onConflict((oc) =>
      oc.column('key').doUpdateSet({
        state: sql`excluded.state`,
        last_received: sql`case when excluded.last_received > analytics_entities.last_received then excluded.last_received else analytics_entities.last_received end`,
      }),
    ),
};
export const hourQueries = additiveUpsert(
  'total_hours_queries',
  'analytics_total_hours',
  HOUR_COLUMNS,
  ['queries'],
  [...HOUR_TYPES, 'bigint'],
  NARROW,
);
export const dayMarkers: ChunkedStatement = {
  name: 'query_days',
  columns: [...DIM_COLUMNS, 'day', 'query_hash'],
  types: [...DIM_TYPES, 'bigint', 'text'],
  maxChunk: NARROW,
  build: (trx, rows) =>
    rows(trx.insertInto('analytics_query_days'))
      .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'day', 'query_hash']).doNothing())
      .returning(['dimension', 'dim_value', 'day']),
};
export const dayQueries = additiveUpsert(
  'total_days',
  'analytics_total_days',
  [...DIM_COLUMNS, 'day'],
  ['queries'],
  [...DIM_TYPES, 'bigint', 'bigint'],
  NARROW,
);
export const loadStates: KeyedStatement = {
  name: 'load_states',
  maxChunk: NARROW,
  build: (trx, keys) => trx.selectFrom('analytics_entities').select(['key', 'state']).where(keys('key')),
};
/** The ids of a batch still stored (the read-first fold's check, fold.kysely-store.ts). */
export const storedIds: KeyedStatement = {
  name: 'stored_ids',
  maxChunk: NARROW,
  build: (trx, keys) => trx.selectFrom('feedback_items').select('id').where(keys('id')),
};
