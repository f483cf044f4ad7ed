import { Kysely, PostgresDialect, sql, type DatabaseIntrospector, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle, DatabaseOptions, DatabaseTarget } from '../database.js';
import type { Database } from '../schema.js';
import { CurrentSchemaIntrospector } from './postgres-introspector.js';

// BIGINT columns hold epoch milliseconds, far below 2^53: read them as numbers (pg-wide, once,
// when storage/database.ts loads this file).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Creates the schema with a short-lived connection, so that the pool's search_path resolves. */
export async function createSchemaIfMissing(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema if not exists "${schema}"`);
  } finally {
    await client.end();
  }
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

export function openPostgres(url: string, schema: string | undefined, options: DatabaseOptions): DatabaseHandle {
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
