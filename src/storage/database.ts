import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type Driver,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteSyncingDriver } from './sqlite/sqlite-driver.js';
import { attachAnalytics } from './sqlite/sqlite-analytics-file.js';
import { CurrentSchemaIntrospector } from './postgres/postgres-introspector.js';
import type { Database } from './schema.js';

/** Where the data lives: the embedded SQLite file or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string };

// BIGINT columns hold epoch milliseconds, far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

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

/** Kysely's SQLite dialect (compiler, adapter, introspector) over the syncing driver (sqlite-driver.ts). */
class SqliteSyncingDialect extends SqliteDialect {
  driver: SqliteSyncingDriver | undefined;

  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly file: string,
    private readonly secondary: boolean,
  ) {
    super({ database: connection });
  }

  override createDriver(): Driver {
    this.driver = new SqliteSyncingDriver(this.connection, this.file, this.secondary);
    return this.driver;
  }
}

function openSqlite(file: string, options: DatabaseOptions, share?: ThreadShare): DatabaseHandle {
  const maxPageCount = options.sqliteMaxPageCount;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  if (maxPageCount !== undefined) connection.pragma(`max_page_count = ${maxPageCount}`);
  attachAnalytics(connection, file, maxPageCount);
  // NORMAL: COMMIT does not fsync on the event loop; the driver fdatasyncs the WAL on the thread
  // pool after each commit and answers only then, so a committed, acknowledged transaction is on
  // disk through a power cut exactly as with FULL (sqlite-driver.ts explains why).
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  // A worker thread's connection is secondary: it writes only the analytics file (sqlite-driver.ts).
  const dialect = new SqliteSyncingDialect(connection, path.resolve(file), share !== undefined);
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    dialect: 'sqlite',
    async sqliteTransaction(work) {
      // Kysely creates the driver on its first query.
      if (!dialect.driver) await sql`select 1`.execute(db);
      return dialect.driver!.transaction(work);
    },
    capabilities: {
      supportsSkipLocked: false,
      supportsAdvisoryLocks: false,
      supportsSchemas: false,
      supportsPartitioning: false,
      supportsDataModifyingCte: false,
      commitOrderedRowids: true,
      supportsArrayParameters: false,
      readsHoldBackWriters: true,
    },
    schema: undefined,
    threadShare: () => (connection.memory ? undefined : { target: { kind: 'sqlite', path: file }, options }),
    poolStats: () => ({ total: 1, idle: 0, waiting: 0 }),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * After a statement times out (DATABASE_STATEMENT_TIMEOUT_MS, pg's "Query read timeout") the
 * server may still run it, and the client's queue no longer matches the wire: a ROLLBACK queued
 * behind it is dropped, and the client went back to the pool inside an open transaction, which
 * the next request's COMMIT then committed — an idempotency key stored without its items. Such a
 * client refuses further statements at once and is released with an error, so the pool closes
 * it and the server rolls the transaction back.
 */
function discardingTimedOutClients(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let timedOut: Error | undefined;
      const query = (sqlOrCursor: unknown, parameters?: ReadonlyArray<unknown>): unknown => {
        if (timedOut) return Promise.reject(timedOut);
        if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
        return client.query(sqlOrCursor, parameters as unknown[]).catch((error: unknown) => {
          if (error instanceof Error && /Query read timeout/.test(error.message)) timedOut = error;
          throw error;
        });
      };
      return { query: query as PostgresPoolClient['query'], release: () => client.release(timedOut) };
    },
    end: () => pool.end(),
  };
}

/** PostgreSQL, introspecting only its own schema (postgres-introspector.ts says why). */
class PostgresDialectInOneSchema extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

function openPostgres(url: string, schema: string | undefined, options: DatabaseOptions): DatabaseHandle {
  const target: DatabaseTarget = { kind: 'postgres', url, ...(schema ? { schema } : {}) };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    // A server that stops answering must not hang requests: the query fails and maps to 503.
    query_timeout: options.statementTimeoutMs ?? 30_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one between two statements (pg emits 'error' on a client with no query
  // running, and an unheard 'error' kills the process): the next statement fails, maps to 503,
  // and the pool discards the client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialectInOneSchema({ pool: discardingTimedOutClients(pool) }) });
  return {
    db,
    dialect: 'postgres',
    capabilities: {
      supportsSkipLocked: true,
      supportsAdvisoryLocks: true,
      supportsSchemas: true,
      supportsPartitioning: true,
      supportsDataModifyingCte: true,
      commitOrderedRowids: false,
      supportsArrayParameters: true,
      readsHoldBackWriters: false,
    },
    schema,
    threadShare: () => ({ target, options }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  if (target.kind === 'sqlite') return openSqlite(target.path, options);
  if (target.schema) {
    // Create the schema with a short-lived connection so the pool's search_path resolves.
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`create schema if not exists "${target.schema}"`);
    } finally {
      await client.end();
    }
  }
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
