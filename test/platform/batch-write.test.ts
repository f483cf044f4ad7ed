import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import {
  chunkSize,
  FixedChunks,
  insertBatches,
  keyBatches,
  MAX_BATCH_ROWS,
  MAX_PARAMETERS,
  rowsPerStatement,
  type ChunkedStatement,
  type KeyedStatement,
} from '../../src/storage/batch-write.js';
import type { Database } from '../../src/storage/schema.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';

const markers: ChunkedStatement = {
  name: 'test_markers',
  columns: ['dimension', 'dim_value', 'day', 'query_hash'],
  types: ['text', 'text', 'bigint', 'text'],
  maxChunk: 16,
  build: (trx, rows) =>
    rows(trx.insertInto('analytics_query_days'))
      .onConflict((oc) => oc.columns(['dimension', 'dim_value', 'day', 'query_hash']).doNothing())
      .returning(['query_hash']),
};
const byHash: KeyedStatement = {
  name: 'test_by_hash',
  maxChunk: 16,
  build: (trx, hashes) => trx.selectFrom('analytics_query_days').select('query_hash').where(hashes('query_hash')),
};

/** The transaction, recording the SQL texts it runs into `texts`. */
function recording<T extends Kysely<Database>>(trx: T, texts: Set<string>): T {
  const execute = trx.executeQuery.bind(trx);
  trx.executeQuery = ((query) => {
    texts.add('sql' in query ? query.sql : query.compile().sql);
    return execute(query);
  }) as T['executeQuery'];
  return trx;
}

it("rows per statement: what fits the parameter limit beside the statement's other parameters", () => {
  expect(rowsPerStatement(23)).toBe(Math.floor(MAX_PARAMETERS / 23));
  expect(rowsPerStatement(1, 100)).toBe(MAX_PARAMETERS - 100);
  expect(() => rowsPerStatement(2, MAX_PARAMETERS)).toThrow();
});

it('batches: rows in order, sliced by the rule and capped at MAX_BATCH_ROWS, what each slice returned collected in order', async () => {
  const wide = Array.from({ length: 1000 }, (_, i) => Object.fromEntries(Array.from({ length: 300 }, (_, c) => [`c${c}`, i])));
  const sizes: number[] = [];
  const firsts = await insertBatches(wide, async (rows) => {
    sizes.push(rows.length);
    return [rows[0]!.c0];
  });
  const per = rowsPerStatement(300);
  expect(sizes).toEqual([...Array.from({ length: Math.floor(1000 / per) }, () => per), 1000 % per].filter((n) => n > 0));
  expect(firsts).toEqual(sizes.map((_, j) => j * per));
  const keys = Array.from({ length: 1201 }, (_, i) => i);
  const seen: number[][] = [];
  expect(await keyBatches(keys, async (slice) => void seen.push(slice), 7)).toEqual([]);
  expect(seen.map((s) => s.length)).toEqual([MAX_BATCH_ROWS, MAX_BATCH_ROWS, 201]);
  expect(seen.flat()).toEqual(keys);
});

it('chunk sizes are the largest power of two that fits', () => {
  expect([1, 2, 3, 7, 8, 100, 128, 1000].map((n) => chunkSize(n, 128))).toEqual([1, 2, 2, 4, 8, 64, 128, 128]);
});

describeOnEveryDatabase('fixed-size chunked statements', (kind) => {
  const t = useTestDatabase(kind);

  it('writes every row of odd-sized lists, reusing one text per chunk size, and returns what each chunk returned', async () => {
    const chunks = new FixedChunks(t.database.capabilities);
    const texts = new Set<string>();
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ['', '', 0, `h${String(from + i).padStart(4, '0')}`]);
    // 37 = 16 + 16 + 4 + 1; then 23 more = 16 + 4 + 2 + 1 with different values in the same texts.
    const run = (from: number, n: number) =>
      t.database.db.transaction().execute((trx) => chunks.run<{ query_hash: string }>(recording(trx, texts), markers, rows(from, n)));
    const first = await run(0, 37);
    const second = await run(30, 30);
    // SQLite: chunks of 16, 8, 4, 2 and 1 rows; PostgreSQL: one statement of arrays for any count.
    expect(texts.size).toBe(t.database.capabilities.supportsArrayParameters ? 1 : 5);
    expect(first.map((r) => r.query_hash)).toEqual(rows(0, 37).map((r) => r[3]));
    // Rows 30…36 existed: do nothing returns only the 23 new ones.
    expect(second.map((r) => r.query_hash)).toEqual(rows(37, 23).map((r) => r[3]));
    const all = await t.database.db.selectFrom('analytics_query_days').select('query_hash').orderBy('query_hash').execute();
    expect(all.map((r) => r.query_hash)).toEqual(rows(0, 60).map((r) => r[3]));
  });

  it('pads a short key list with repeats of its last key, which return nothing twice', async () => {
    const chunks = new FixedChunks(t.database.capabilities);
    const keys = ['h0003', 'h0001', 'h0040', 'h0059', 'h9999'];
    const found = await t.database.db.transaction().execute((trx) => chunks.runKeys<{ query_hash: string }>(trx, byHash, keys));
    expect(found.map((r) => r.query_hash).sort()).toEqual(['h0001', 'h0003', 'h0040', 'h0059']);
    const many = Array.from({ length: 40 }, (_, i) => `h${String(i).padStart(4, '0')}`);
    const foundMany = await t.database.db.transaction().execute((trx) => chunks.runKeys<{ query_hash: string }>(trx, byHash, many));
    expect(foundMany.map((r) => r.query_hash).sort()).toEqual(many);
  });
});
