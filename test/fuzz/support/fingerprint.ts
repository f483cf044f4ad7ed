import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../src/storage/database.js';

/** One line per table: name, row count and a hash of every row's content. */
export type Fingerprint = string[];

/**
 * A cheap content checksum of every table in the database catalogue (so a table added by a
 * later migration is covered without editing this file). PostgreSQL computes it server-side in
 * one round trip; SQLite is in-process, so rows are read and hashed here, after writes only.
 */
export async function createFingerprinter(database: DatabaseHandle): Promise<() => Promise<Fingerprint>> {
  const { db } = database;
  if (database.dialect === 'sqlite') {
    const tables = (
      await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
        db,
      )
    ).rows.map((r) => r.name);
    if (tables.length === 0) throw new Error('no tables to fingerprint');
    // total_changes() counts every row this (only) connection wrote: while it stands still the
    // content cannot have changed, so the full hash is recomputed only after a write.
    let lastChanges = -1;
    let lastPrint: Fingerprint = [];
    return async () => {
      const changes = Number((await sql<{ n: number }>`select total_changes() as n`.execute(db)).rows[0]?.n ?? -2);
      if (changes === lastChanges) return lastPrint;
      const out: Fingerprint = [];
      for (const table of tables) {
        const rows = (await sql.raw<Record<string, unknown>>(`select * from "${table}"`).execute(db)).rows;
        const hash = createHash('sha1')
          .update(JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
          .digest('hex');
        out.push(`${table}:${rows.length}:${hash}`);
      }
      lastChanges = changes;
      lastPrint = out;
      return out;
    };
  }
  const tables = (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
      db,
    )
  ).rows.map((r) => r.name);
  if (tables.length === 0) throw new Error('no tables to fingerprint');
  const query = tables
    .map((t) => `select '${t}' as t, count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`)
    .join(' union all ');
  return async () => (await sql.raw<{ t: string; n: number; h: string }>(query).execute(db)).rows.map((r) => `${r.t}:${r.n}:${r.h}`);
}

export function fingerprintDiff(before: Fingerprint, after: Fingerprint): string[] {
  const changed: string[] = [];
  const n = Math.max(before.length, after.length);
  for (let i = 0; i < n; i += 1) if (before[i] !== after[i]) changed.push(`${before[i] ?? '(none)'} → ${after[i] ?? '(none)'}`);
  return changed;
}
