import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { Checkpointer } from './checkpointer.js';
import { FileSync } from './file-sync.js';
import { Mutex } from './mutex.js';
import { SqliteConnection } from './sqlite-connection.js';
import { analyticsFileOf } from './sqlite-analytics-file.js';

/**
 * SQLite with the commit's fsync off the event loop.
 *
 * The connection runs with `synchronous = NORMAL` in WAL mode: COMMIT appends the transaction's
 * frames to the WAL (into the page cache, microseconds) and does not fsync. After every commit
 * the driver fdatasyncs the WAL file on libuv's thread pool and settles the statement's promise
 * only then, so every acknowledgement still comes after its transaction is on disk, exactly as
 * with `synchronous = FULL` (which fsyncs the WAL at each commit), but the event loop keeps
 * serving requests during the sync, and one sync covers every transaction committed before it
 * started (commits made while one runs share the next). The connection is free for the next
 * transaction as soon as COMMIT returns, so writes pipeline with the previous sync.
 *
 * Why NORMAL + our own sync is as safe as FULL: in WAL mode a commit is durable once its frames
 * are on disk; NORMAL only skips that sync (SQLite still syncs the WAL before each checkpoint and
 * the database after it), and a power cut loses at most transactions whose sync had not returned,
 * none of which was acknowledged. A crash of the process alone (kill -9) loses nothing committed:
 * the frames are in the operating system's cache.
 *
 * Checkpoints (copying the WAL into the database file, with two fsyncs) would otherwise run inside
 * an unlucky COMMIT every 1 000 pages, on the event loop: the connection turns automatic
 * checkpoints off and a worker thread with its own connection runs PASSIVE checkpoints, which
 * wait for no reader or writer, every 250 ms; when the WAL passes 32 MB anyway, writes pause for
 * one checkpoint that completes, so the WAL restarts (catchUp).
 *
 * A worker thread may open its own connection to the same files (the analytics fold): a *secondary*
 * connection. It must write only the analytics file (sqlite-analytics-file.ts), never the main one:
 * two connections of one process writing one file would meet in SQLite's busy handler, which sleeps
 * on the thread, and on the event loop that stalls every request. Only the opener runs the checkpointer.
 */

/** WAL size past which writes pause for one checkpoint that catches up (see catchUp). */
const WAL_CATCH_UP_BYTES = 32 * 1024 * 1024;
/** What a restarted WAL file is truncated to (journal_size_limit). */
const WAL_KEEP_BYTES = 4 * 1024 * 1024;

export class SqliteSyncingDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Absent for an in-memory database (`:memory:`), which has no file to sync or checkpoint, and on a secondary connection. */
  private readonly wal: FileSync | undefined;
  /** The analytics file's WAL (sqlite-analytics-file.ts), synced after a commit that wrote it (an erasure must be on disk when answered). */
  private readonly analyticsWal: FileSync | undefined;
  /** Whether each prepared write statement names an analytics table (the only tables in that file). */
  private readonly writesAnalytics = new WeakMap<BetterSqlite3.Statement, boolean>();
  /** A write since the last commit went to the analytics file. */
  private analyticsDirty = false;
  private readonly checkpointer: Checkpointer | undefined;
  /** A write ran since the last commit: the next moment outside a transaction is a commit. */
  private dirty = false;
  private catchingUp = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    file: string,
    /**
     * A second thread's connection (the analytics fold's): the opener's checkpointer serves the
     * file, and its commits are not waited for, because nothing it writes is acknowledged to
     * anyone. A commit of it is atomic in the WAL all the same, and on disk with the next sync of
     * any later commit (a sync covers every frame before it) or the next checkpoint; a power cut
     * before then loses the transaction whole, which that thread redoes.
     */
    secondary = false,
  ) {
    if (db.memory) return;
    this.wal = secondary ? undefined : new FileSync(`${file}-wal`);
    this.analyticsWal = secondary ? undefined : new FileSync(`${analyticsFileOf(file)}-wal`);
    // A secondary connection checkpoints what it writes itself, on its own thread, after its commits
    // (the fold thread writes the analytics file continuously, and a checkpoint made by the writer
    // between its own transactions completes, so the WAL restarts).
    db.pragma(`wal_autocheckpoint = ${secondary ? 1000 : 0}`);
    // When the WAL restarts, cut the file back, so its size tells how much is waiting (catchUp).
    db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`);
    if (!secondary) this.checkpointer = new Checkpointer(file, 250);
  }

  async init(): Promise<void> {}

  /** This thread's turn on the connection (a transaction holds it from BEGIN to COMMIT/ROLLBACK). */
  async lock(): Promise<void> {
    await this.mutex.lock();
  }

  unlock(): void {
    this.mutex.unlock();
  }

  async durable(): Promise<void> {
    if (!this.wal) return;
    const analytics = this.analyticsDirty;
    this.analyticsDirty = false;
    await Promise.all([this.wal.sync(), analytics ? this.analyticsWal?.sync() : undefined]);
    if (this.catchingUp) return;
    // The analytics WAL only when this connection writes it (a fold on the event loop): the fold
    // thread's connection checkpoints its own writes.
    if (this.wal.size() > WAL_CATCH_UP_BYTES) void this.catchUp('main');
    else if (analytics && this.analyticsWal && this.analyticsWal.size() > WAL_CATCH_UP_BYTES) void this.catchUp('analytics');
  }

  /**
   * Runs `work` as one synchronous transaction on the raw connection, for bulk paths that reuse
   * their own prepared statements (the import). It holds the mutex like any transaction and, like
   * every other write, resolves only after a WAL sync that began after its commit.
   */
  async transaction<T>(work: (connection: BetterSqlite3.Database) => T): Promise<T> {
    await this.lock();
    let result: T;
    try {
      result = this.db.transaction(() => work(this.db))();
    } finally {
      this.unlock();
    }
    await this.durable();
    return result;
  }

  /**
   * The thread's PASSIVE checkpoints copy what was committed when they started; under steady
   * writes the WAL then never becomes fully copied, so SQLite never restarts it and it grows
   * (hundreds of MB in a minute of load). Past WAL_CATCH_UP_BYTES this pauses this process's
   * writes (the event loop keeps serving; writers wait on the mutex) for one checkpoint that
   * completes, after which the next commit starts the WAL from its beginning again.
   */
  private async catchUp(schema: 'main' | 'analytics'): Promise<void> {
    this.catchingUp = true;
    try {
      await this.lock();
      try {
        await this.checkpointer?.checkpoint(schema);
      } finally {
        this.unlock();
      }
    } finally {
      this.catchingUp = false;
    }
  }

  /** The prepared statement for a text (cached: at most 1 000 texts). */
  prepared(sql: string): BetterSqlite3.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (this.statements.size >= 1000) this.statements.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /** Runs one statement synchronously; `committed` when it ended a transaction that wrote. */
  run(stmt: BetterSqlite3.Statement, parameters: readonly unknown[]): { result: QueryResult<unknown>; committed: boolean } {
    if (!stmt.readonly) {
      this.dirty = true;
      let analytics = this.writesAnalytics.get(stmt);
      if (analytics === undefined) this.writesAnalytics.set(stmt, (analytics = /\banalytics_/i.test(stmt.source)));
      if (analytics) this.analyticsDirty = true;
    }
    let result: QueryResult<unknown>;
    try {
      if (stmt.reader) {
        result = { rows: stmt.all(parameters) };
      } else {
        const { changes, lastInsertRowid } = stmt.run(parameters);
        result = {
          numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
          insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
          rows: [],
        };
      }
    } catch (error) {
      // Outside a transaction after a failure nothing of it is left to sync.
      if (!this.db.inTransaction) this.dirty = this.analyticsDirty = false;
      throw error;
    }
    const committed = this.dirty && !this.db.inTransaction;
    if (committed) this.dirty = false;
    return { result, committed };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock();
    return new SqliteConnection(this, true);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR…): a ROLLBACK
    // then fails with "no transaction is active" and hides the error that matters.
    this.dirty = this.analyticsDirty = false;
    if (this.db.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const conn = connection as SqliteConnection;
    if (!conn.held) return;
    conn.held = false;
    this.unlock();
  }

  /**
   * Closes once the connection's current holder is done: a transaction in flight commits or rolls
   * back first, so closing never cuts one short. Later callers then fail at once: the connection is closed.
   */
  async destroy(): Promise<void> {
    await this.lock();
    try {
      await this.checkpointer?.close();
      this.statements.clear();
      this.db.close();
      this.wal?.close();
      this.analyticsWal?.close();
    } finally {
      this.unlock();
    }
  }
}
