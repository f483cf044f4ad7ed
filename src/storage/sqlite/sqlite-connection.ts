import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type { SqliteSyncingDriver } from './sqlite-driver.js';

/** Kysely's connection over the driver's one better-sqlite3 connection: a turn on the driver's mutex. */
export class SqliteConnection implements DatabaseConnection {
  constructor(
    private readonly driver: SqliteSyncingDriver,
    /** Whether this acquisition holds the mutex (it gives it back as soon as it commits). */
    public held: boolean,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.held) {
      // A pinned connection (db.connection()) going on after its commit: take the mutex again.
      await this.driver.lock();
      this.held = true;
    }
    const statement = this.driver.prepared(compiledQuery.sql);
    const { result, committed } = this.driver.run(statement, compiledQuery.parameters);
    if (committed) {
      this.held = false;
      this.driver.unlock();
      await this.driver.durable();
    }
    return result as QueryResult<R>;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(compiledQuery);
    for (const row of result.rows) yield { rows: [row] };
  }
}
