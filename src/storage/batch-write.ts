import { CompiledQuery, sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseCapabilities } from './database.js';
import type { Database } from './schema.js';

/**
 * Multi-row statements (the analytics fold's upserts), compiled once and then run from their SQL text.
 *
 * Why: building a 100-row INSERT through Kysely's builder parses and compiles every value (as much
 * CPU as SQLite spends executing it), and each distinct SQL text costs the database a parse.
 * - SQLite: chunks are powers of two up to `maxChunk`, so a table has at most log2(maxChunk) + 1
 *   VALUES texts, each compiled and prepared once per process (the driver caches statements by
 *   text); a batch's rows become at most that many statements past the full chunks.
 * - PostgreSQL (capabilities.supportsArrayParameters): one text per statement, whatever the row
 *   count — the rows go as one array per column, unnested (`select * from unnest($1::text[], …)`).
 *   A VALUES list is planned afresh on every run, and planning 512 rows × 8 parameters cost more
 *   than executing them: an upsert of analytics result rows took 18–22 µs a row that way and
 *   8.3 µs unnested (measured 2026-11-27, 200 batches of 512 rows).
 */

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
      const n = arrays ? Math.min(rows.length - i, MAX_ARRAY_ROWS) : chunkSize(rows.length - i, statement.maxChunk);
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
   * Runs a statement over a key list in chunks of `maxChunk` (a power of two). On SQLite a shorter
   * chunk is padded to the next power of two with repeats of its last key, which change nothing in
   * an IN list; on PostgreSQL the keys are one array parameter.
   */
  async runKeys<R = Record<string, unknown>>(trx: Trx, statement: KeyedStatement, keys: readonly string[]): Promise<R[]> {
    const out: R[] = [];
    const arrays = this.capabilities.supportsArrayParameters;
    const step = arrays ? MAX_ARRAY_ROWS : statement.maxChunk;
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
