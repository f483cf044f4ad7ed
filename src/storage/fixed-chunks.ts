import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Multi-row statements (the analytics fold's upserts), compiled once per chunk size and then run from their SQL text.
 *
 * Why: building a 100-row INSERT through Kysely's builder parses and compiles every value (as much
 * CPU as SQLite spends executing it), and a chunk of a new size is a new SQL text that the SQLite
 * driver must prepare again (its statement cache is keyed by text). Chunks here are powers of two
 * up to `maxChunk`, so a table has at most log2(maxChunk) + 1 texts, each compiled and prepared
 * once per process; a batch's rows become at most that many statements past the full chunks.
 */

// A transaction, or the database itself for reads outside one.
type Trx = Kysely<Database>;

export interface ChunkedStatement {
  /** Cache key: one text per (name, chunk size). */
  name: string;
  columns: readonly string[];
  maxChunk: number;
  /** The statement for these rows (objects keyed by `columns`), built with Kysely. */
  build(trx: Trx, rows: Record<string, unknown>[]): Compilable;
}

/** The largest power of two ≤ min(left, max). */
export function chunkSize(left: number, max: number): number {
  let n = 1;
  while (n * 2 <= left && n * 2 <= max) n *= 2;
  return n;
}

export class FixedChunks {
  private readonly texts = new Map<string, string>();

  /**
   * Runs `statement` over `rows` (each an array of values in `columns` order) in fixed-size
   * chunks; returns what the chunks' RETURNING clauses gave, in order.
   */
  async run<R = Record<string, unknown>>(trx: Trx, statement: ChunkedStatement, rows: readonly (readonly unknown[])[]): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < rows.length;) {
      const n = chunkSize(rows.length - i, statement.maxChunk);
      const chunk = rows.slice(i, i + n);
      const parameters: unknown[] = [];
      for (const row of chunk) for (const value of row) parameters.push(value);
      const key = `${statement.name}\u0001${n}`;
      let text = this.texts.get(key);
      if (text === undefined) {
        const objects = chunk.map((r) => Object.fromEntries(statement.columns.map((c, j) => [c, r[j]])));
        const compiled = statement.build(trx, objects).compile();
        // The text is reused with other rows' values: the statement's only parameters must be the
        // rows' values, row by row in `columns` order (anything else is a literal in the text).
        const same = compiled.parameters.length === parameters.length && compiled.parameters.every((p, j) => Object.is(p, parameters[j]));
        if (!same) throw new Error(`${statement.name}: parameters are not the rows' values in column order`);
        text = compiled.sql;
        this.texts.set(key, text);
      }
      const result = await trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
      for (const r of result.rows) out.push(r);
      i += n;
    }
    return out;
  }

  /**
   * Runs a statement over a key list (`where key in (…)`) in chunks of `maxChunk` (a power of two):
   * a shorter chunk is padded to the next power of two with repeats of its last key, which change
   * nothing in an IN list.
   */
  async runKeys<R = Record<string, unknown>>(
    trx: Trx,
    statement: Omit<ChunkedStatement, 'columns' | 'build'> & { build(trx: Trx, keys: string[]): Compilable },
    keys: readonly string[],
  ): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < keys.length; i += statement.maxChunk) {
      const chunk = keys.slice(i, i + statement.maxChunk);
      let size = 1;
      while (size < chunk.length) size *= 2;
      while (chunk.length < size) chunk.push(chunk[chunk.length - 1]!);
      const rows = await this.run<R>(
        trx,
        {
          name: statement.name,
          columns: ['key'],
          maxChunk: size,
          build: (t, objects) =>
            statement.build(
              t,
              objects.map((o) => o.key as string),
            ),
        },
        chunk.map((k) => [k]),
      );
      for (const r of rows) out.push(r);
    }
    return out;
  }
}
