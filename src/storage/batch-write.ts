import { CompiledQuery, sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseCapabilities } from './database.js';
import type { Database } from './schema.js';

/**
 * Every multi-row write (and every read or update over a key list) goes through this file, which
 * owns the one rule for how many rows go in one statement:
 *
 *   rows per statement = floor((MAX_PARAMETERS − the statement's other parameters) / parameters per row)
 *
 * where MAX_PARAMETERS is SQLite's bound-parameter limit, 32 766, the lower of the two databases'
 * (PostgreSQL's is 65 535), so one size is right on both. Two shapes apply it:
 *
 * - `insertBatches` / `keyBatches`: run a Kysely builder once per slice of rows (or keys), in order,
 *   and collect what each returned. A slice also stops at MAX_BATCH_ROWS (500, the largest size the
 *   hand-written loops this replaced used): such a statement is compiled by Kysely on every run and,
 *   on PostgreSQL, planned afresh, so longer VALUES lists buy nothing.
 * - `FixedChunks`: statements run often with many rows (the analytics fold's upserts), compiled once
 *   and then run from their SQL text. Its chunks are the largest power of two within both the rule
 *   above and the statement's `maxChunk`, so a table has few distinct texts.
 *
 * Why FixedChunks compiles once: building a 100-row INSERT through Kysely's builder parses and
 * compiles every value (as much CPU as SQLite spends executing it), and each distinct SQL text costs
 * the database a parse.
 * - SQLite: chunks are powers of two up to `maxChunk`, so a table has at most log2(maxChunk) + 1
 *   VALUES texts, each compiled and prepared once per process (the driver caches statements by
 *   text); a batch's rows become at most that many statements past the full chunks.
 * - PostgreSQL (capabilities.supportsArrayParameters): one text per statement, whatever the row
 *   count — the rows go as one array per column, unnested (`select * from unnest($1::text[], …)`),
 *   so the parameter limit does not apply (one parameter per column).
 *   A VALUES list is planned afresh on every run, and planning 512 rows × 8 parameters cost more
 *   than executing them: an upsert of analytics result rows took 18–22 µs a row that way and
 *   8.3 µs unnested (measured 2026-11-27, 200 batches of 512 rows).
 *
 * The feedback import's statements (feedback/import/store/bulk-statements.ts) are the one measured
 * exception in form, not in rule: single-row prepared statements on SQLite (no list at all) and one
 * unnest statement per batch on PostgreSQL (arrays: the limit does not apply).
 */

/** Bound parameters one statement may carry: SQLite's limit, the lower of the two databases'. */
export const MAX_PARAMETERS = 32_766;

/** Rows (or keys) per builder-run statement at most, whatever their width (see above). */
export const MAX_BATCH_ROWS = 500;

/** How many rows of `parametersPerRow` parameters fit one statement that binds `otherParameters` besides. */
export function rowsPerStatement(parametersPerRow: number, otherParameters = 0): number {
  const rows = Math.floor((MAX_PARAMETERS - otherParameters) / Math.max(1, parametersPerRow));
  if (rows < 1) throw new Error(`a statement of ${otherParameters} parameters and rows of ${parametersPerRow} exceeds ${MAX_PARAMETERS}`);
  return rows;
}

/** Runs `run` over `items` in slices of `size`, one after another; what each returned, in order. */
async function inSlices<T, R>(items: readonly T[], size: number, run: (slice: T[]) => Promise<readonly R[] | void>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    const rows = await run(items.slice(i, i + size));
    if (rows) for (const r of rows) out.push(r);
  }
  return out;
}

/**
 * An INSERT (or upsert) builder run per slice of `rows`, each row one object of column values: a row
 * binds one parameter per column (the widest row counts), the statement `otherParameters` besides.
 */
export function insertBatches<Row extends object, R = never>(
  rows: readonly Row[],
  run: (slice: Row[]) => Promise<readonly R[] | void>,
  otherParameters = 0,
): Promise<R[]> {
  const width = rows.reduce((most, row) => Math.max(most, Object.keys(row).length), 1);
  return inSlices(rows, Math.min(MAX_BATCH_ROWS, rowsPerStatement(width, otherParameters)), run);
}

/**
 * A read or update builder run per slice of a key list (`where(column, 'in', slice)`): a key binds one
 * parameter, the statement `otherParameters` besides (its other conditions' values).
 */
export function keyBatches<K, R = never>(
  keys: readonly K[],
  run: (slice: K[]) => Promise<readonly R[] | void>,
  otherParameters = 0,
): Promise<R[]> {
  return inSlices(keys, Math.min(MAX_BATCH_ROWS, rowsPerStatement(1, otherParameters)), run);
}

// A transaction, or the database itself for reads outside one.
type Trx = Kysely<Database>;

/** What RowSource needs of Kysely's InsertQueryBuilder, whatever its table and result. */
interface InsertInto {
  values(rows: never): unknown;
  columns(columns: never): { expression(rows: never): unknown };
}

/** Puts the rows into an INSERT: a VALUES list, or the arrays unnested. */
export type RowSource = <I extends InsertInto>(insert: I) => I;

/** A key-list condition on one column: `column in (…)`, or `column = any($1::text[])`. */
export type KeyMatch = (column: string) => RawBuilder<boolean>;

export interface ChunkedStatement {
  /** Cache key: one text per (name, chunk size). */
  name: string;
  columns: readonly string[];
  /** Each column's PostgreSQL type (`text`, `bigint`, `integer`), for its array. */
  types: readonly string[];
  maxChunk: number;
  /** The statement for these rows: `rows(trx.insertInto(table))`, then ON CONFLICT, RETURNING. */
  build(trx: Trx, rows: RowSource): Compilable;
}

/** A read or update over a key list; `keys('key')` is the condition on the key column. */
export interface KeyedStatement {
  name: string;
  maxChunk: number;
  build(trx: Trx, keys: KeyMatch): Compilable;
}

// Rows per statement with arrays: no parameter limit applies, this only bounds one message's size.
const MAX_ARRAY_ROWS = 8_192;

/** The largest power of two ≤ min(left, max). */
export function chunkSize(left: number, max: number): number {
  let n = 1;
  while (n * 2 <= left && n * 2 <= max) n *= 2;
  return n;
}

export class FixedChunks {
  private readonly texts = new Map<string, string>();

  constructor(private readonly capabilities: Pick<DatabaseCapabilities, 'supportsArrayParameters'>) {}

  /**
   * Runs `statement` over `rows` (each an array of values in `columns` order); returns what the
   * statements' RETURNING clauses gave, in order.
   */
  async run<R = Record<string, unknown>>(trx: Trx, statement: ChunkedStatement, rows: readonly (readonly unknown[])[]): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < rows.length;) {
      const arrays = this.capabilities.supportsArrayParameters;
      const n = arrays
        ? Math.min(rows.length - i, MAX_ARRAY_ROWS)
        : chunkSize(rows.length - i, Math.min(statement.maxChunk, rowsPerStatement(statement.columns.length)));
      const chunk = rows.slice(i, i + n);
      const parameters = arrays ? statement.columns.map((_, j) => chunk.map((row) => row[j])) : chunk.flat();
      const text = this.text(trx, `${statement.name}\u0001${arrays ? 'arrays' : n}`, parameters, () =>
        statement.build(trx, arrays ? unnested(statement, parameters as unknown[][]) : valuesOf(statement, chunk)),
      );
      const result = await trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
      for (const r of result.rows) out.push(r);
      i += n;
    }
    return out;
  }

  /**
   * Runs a statement over a key list in chunks of `maxChunk` (a power of two, within the rule). On SQLite a shorter
   * chunk is padded to the next power of two with repeats of its last key, which change nothing in
   * an IN list; on PostgreSQL the keys are one array parameter.
   */
  async runKeys<R = Record<string, unknown>>(trx: Trx, statement: KeyedStatement, keys: readonly string[]): Promise<R[]> {
    const out: R[] = [];
    const arrays = this.capabilities.supportsArrayParameters;
    const step = arrays ? MAX_ARRAY_ROWS : chunkSize(statement.maxChunk, rowsPerStatement(1));
    for (let i = 0; i < keys.length; i += step) {
      const chunk = keys.slice(i, i + step);
      let parameters: unknown[];
      let match: KeyMatch;
      if (arrays) {
        parameters = [chunk];
        match = (column) => sql<boolean>`${sql.ref(column)} = any(${chunk}::text[])`;
      } else {
        let size = 1;
        while (size < chunk.length) size *= 2;
        while (chunk.length < size) chunk.push(chunk[chunk.length - 1]!);
        parameters = chunk;
        match = (column) => sql<boolean>`${sql.ref(column)} in (${sql.join(chunk)})`;
      }
      const text = this.text(trx, `${statement.name}\u0001${arrays ? 'arrays' : parameters.length}`, parameters, () =>
        statement.build(trx, match),
      );
      const result = await trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
      for (const r of result.rows) out.push(r);
    }
    return out;
  }

  /** The cached text under `key`, or the statement compiled now (its parameters checked). */
  private text(trx: Trx, key: string, parameters: readonly unknown[], build: () => Compilable): string {
    const cached = this.texts.get(key);
    if (cached !== undefined) return cached;
    const compiled = build().compile();
    // The text is reused with other rows' values: the statement's only parameters must be the
    // rows' values, in `columns` order (anything else is a literal in the text).
    const same = compiled.parameters.length === parameters.length && compiled.parameters.every((p, j) => Object.is(p, parameters[j]));
    if (!same) throw new Error(`${key.split('\u0001')[0]}: parameters are not the rows' values in column order`);
    this.texts.set(key, compiled.sql);
    return compiled.sql;
  }
}

function valuesOf(statement: ChunkedStatement, chunk: readonly (readonly unknown[])[]): RowSource {
  const objects = chunk.map((r) => Object.fromEntries(statement.columns.map((c, j) => [c, r[j]])));
  return (insert) => insert.values(objects as never) as typeof insert;
}

function unnested(statement: ChunkedStatement, arrays: readonly unknown[][]): RowSource {
  const columns = arrays.map((a, j) => sql`${a}::${sql.raw(statement.types[j]!)}[]`);
  return (insert) =>
    insert.columns(statement.columns as never).expression(sql`select * from unnest(${sql.join(columns)})` as never) as typeof insert;
}
