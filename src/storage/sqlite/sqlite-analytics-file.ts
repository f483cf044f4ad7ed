import type BetterSqlite3 from 'better-sqlite3';

/**
 * On SQLite the search-analytics tables live in a second file beside the database,
 * `<file>-analytics`, attached to every connection as the schema `analytics` (migration 0090).
 *
 * Why a second file: SQLite has one writer per file. The analytics fold writes about as many rows
 * as ingestion does (hour, result and state rows per item); in the same file its transactions held
 * the writer that ingestion waits for (bench:analytics measured ingestion 15–25 % slower). In its
 * own file the fold thread's transactions take that file's writer only, and it reads feedback
 * through WAL snapshots, which wait for nobody.
 *
 * Queries name the tables without a schema: SQLite looks for an unqualified name in `main`, then in
 * the attached files, so the same SQL runs here and on PostgreSQL. A migration that creates an
 * analytics table on SQLite creates it as `analytics.<name>`.
 *
 * A transaction that writes both files (an erasure, a fold on the event loop reading feedback and
 * writing aggregates) is atomic in each file, not across them (SQLite's rule for attached WAL
 * databases): after a crash one file may hold its part without the other. Nothing depends on that
 * across the two: the fold's cursor lives in the analytics file with the aggregates it describes.
 */
export const ANALYTICS_SCHEMA = 'analytics';

/** The analytics file of a database file (an in-memory database gets an in-memory one). */
export function analyticsFileOf(file: string): string {
  return file === ':memory:' || file === '' ? ':memory:' : `${file}-analytics`;
}

/** Attaches the analytics file to a connection, in WAL mode with the main file's durability setting. */
export function attachAnalytics(connection: BetterSqlite3.Database, file: string, maxPageCount?: number): void {
  connection.prepare(`attach database ? as ${ANALYTICS_SCHEMA}`).run(analyticsFileOf(file));
  connection.pragma(`${ANALYTICS_SCHEMA}.journal_mode = WAL`);
  connection.pragma(`${ANALYTICS_SCHEMA}.synchronous = NORMAL`);
  // As for the main file (sqlite-driver.ts): a restarted WAL is cut back to 4 MiB.
  connection.pragma(`${ANALYTICS_SCHEMA}.journal_size_limit = ${4 * 1024 * 1024}`);
  if (maxPageCount !== undefined) connection.pragma(`${ANALYTICS_SCHEMA}.max_page_count = ${maxPageCount}`);
}
