import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Driver } from 'kysely';
import type { DatabaseHandle, DatabaseOptions, ThreadShare } from '../database.js';
import type { Database } from '../schema.js';
import { attachAnalytics } from './sqlite-analytics-file.js';
import { SqliteSyncingDriver } from './sqlite-driver.js';

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

export function openSqlite(file: string, options: DatabaseOptions, share?: ThreadShare): DatabaseHandle {
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
