import { Migrator, sql, type Kysely } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export interface MigrationReport {
  applied: string[];
}

function migratorFor(db: Kysely<Database>, handle: DatabaseHandle): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(handle.capabilities.supportsSchemas ? { migrationTableSchema: handle.schema ?? 'public' } : {}),
  });
}

/** A migrator over this handle's migrations and schema, for stepping to one migration (migration tests). */
export function createMigrator(handle: DatabaseHandle): Migrator {
  return migratorFor(handle.db, handle);
}

async function run(migrator: Migrator): Promise<MigrationReport> {
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown })?.code ?? ''));

/**
 * Takes SQLite's write lock, waiting asynchronously: better-sqlite3's busy_timeout would block
 * the event loop, which deadlocks two instances sharing one process (as the tests do).
 */
async function beginImmediate(conn: Kysely<Database>): Promise<void> {
  await sql`pragma busy_timeout = 0`.execute(conn);
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await sql`begin immediate`.execute(conn);
        return;
      } catch (error) {
        if (!isBusy(error) || attempt >= 600) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await sql`pragma busy_timeout = 5000`.execute(conn);
  }
}

/**
 * Runs every pending migration, safely when several instances start at once.
 * PostgreSQL: Kysely's migrator takes an advisory lock and runs each migration in a transaction.
 * SQLite: Kysely runs its DDL outside a transaction, so we hold BEGIN IMMEDIATE (the file's
 * write lock; a second process waits on busy_timeout) around the whole run instead.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<MigrationReport> {
  if (handle.capabilities.supportsAdvisoryLocks) return run(migratorFor(handle.db, handle));
  return handle.db.connection().execute(async (conn) => {
    await beginImmediate(conn);
    try {
      const report = await run(migratorFor(conn, handle));
      await sql`commit`.execute(conn);
      return report;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}
