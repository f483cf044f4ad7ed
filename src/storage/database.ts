import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { createSchemaIfMissing, openPostgres } from './postgres/open-postgres.js';
import { openSqlite } from './sqlite/open-sqlite.js';
import type { Database } from './schema.js';

/** Where the data lives: the embedded SQLite file or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string };

/**
 * What the database can do, for code that must behave differently on each: stores and the
 * migrator branch on a capability, which says why, never on the dialect's name.
 */
export interface DatabaseCapabilities {
  /**
   * SELECT … FOR UPDATE SKIP LOCKED: concurrent claimers on several instances each lock a
   * different row (PostgreSQL). SQLite has one writer at a time, so a plain
   * UPDATE … WHERE id = (SELECT …) is already atomic there.
   */
  supportsSkipLocked: boolean;
  /**
   * pg_try_advisory_xact_lock: one instance at a time runs a job that must not interleave
   * (attribution), and Kysely's migrator can lock the migration run. SQLite serialises writers
   * by itself and locks migrations with BEGIN IMMEDIATE instead.
   */
  supportsAdvisoryLocks: boolean;
  /** Tables live in a named schema (PostgreSQL's search_path), so the migration table must too. */
  supportsSchemas: boolean;
  /**
   * Declarative partitioning: feedback_items is partitioned by day on PostgreSQL (migration 0061),
   * so retention drops whole days; SQLite deletes in small batches instead.
   */
  supportsPartitioning: boolean;
  /**
   * INSERT … RETURNING inside WITH feeding further INSERTs, all one statement (PostgreSQL): a
   * multi-table write is one round trip and atomic without BEGIN/COMMIT. SQLite has no
   * data-modifying CTEs; its statements run in-process, so a transaction of several costs little.
   */
  supportsDataModifyingCte: boolean;
  /**
   * A new feedback_items row's rowid is above every committed row's (SQLite: one writer at a time;
   * migration 0085 records the deletions after which it is not), so "folded through rowid N" is a
   * cursor the analytics fold can follow instead of flagging each item. PostgreSQL's concurrent
   * writers commit out of key order, so its fold follows snapshots instead (migration 0095).
   */
  commitOrderedRowids: boolean;
  /**
   * A statement can take a whole column of rows as one array parameter and unnest it (PostgreSQL):
   * a multi-row upsert is then one short text with a parameter per column, which PostgreSQL parses
   * and plans in microseconds, where a VALUES list of 512 rows × 8 columns is 4 096 parameters
   * planned on every run. SQLite has no arrays; its prepared VALUES statements are cheap to rerun.
   */
  supportsArrayParameters: boolean;
  /**
   * A long read transaction holds back writers (SQLite: it keeps the WAL from restarting, and past
   * 32 MB of WAL writes pause for a checkpoint that waits for such readers, sqlite-driver.ts), so
   * background readers keep their transactions short. PostgreSQL's MVCC readers hold back only vacuum.
   */
  readsHoldBackWriters: boolean;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  capabilities: DatabaseCapabilities;
  /** The PostgreSQL schema the tables live in (undefined on SQLite). */
  schema: string | undefined;
  /**
   * SQLite only: runs `work` as one synchronous transaction on the connection under Kysely, for
   * bulk paths that reuse their own prepared statements (the import). It waits its turn like any
   * Kysely transaction and resolves once the transaction is on disk (the driver's WAL sync, as for
   * every other write), so its result may be acknowledged at once.
   */
  sqliteTransaction?: <T>(work: (connection: BetterSqlite3.Database) => T) => Promise<T>;
  /**
   * What a worker thread needs to open its own connection to this database (plain data it can be
   * sent): the target and the options. Undefined for an in-memory SQLite database, which no other
   * connection can reach.
   */
  threadShare(): ThreadShare | undefined;
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  /** Connection pool use, for metrics. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** How long to wait for a pooled connection before failing (ms). */
  connectionTimeoutMs?: number;
  /** How long one statement may take before it fails (ms). */
  statementTimeoutMs?: number;
  /**
   * SQLite: cap the file at this many pages (4 KiB each), an operator's guard against one
   * instance filling a shared disk. Past the cap writes fail with SQLITE_FULL, which the API
   * answers as 503 UNAVAILABLE, exactly as a full disk.
   */
  sqliteMaxPageCount?: number;
}

/** A database handle's description for a worker thread (openDatabaseInThread). */
export interface ThreadShare {
  target: DatabaseTarget;
  options: DatabaseOptions;
}

export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  if (target.kind === 'sqlite') return openSqlite(target.path, options);
  if (target.schema) await createSchemaIfMissing(target.url, target.schema);
  return openPostgres(target.url, target.schema, options);
}

/**
 * A worker thread's own handle on the database another thread opened (its `threadShare()`): on
 * SQLite a secondary connection, which may write only the analytics file and whose commits are not
 * waited for (sqlite-driver.ts: for work nothing is acknowledged on); on PostgreSQL a pool of its
 * own (two connections: a worker runs one job at a time).
 */
export function openDatabaseInThread(share: ThreadShare): DatabaseHandle {
  if (share.target.kind === 'sqlite') return openSqlite(share.target.path, share.options, share);
  return openPostgres(share.target.url, share.target.schema, { ...share.options, poolSize: 2 });
}
