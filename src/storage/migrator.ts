import { Migrator, type MigrationResultSet } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { migrations } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/**
 * Runs every pending migration. On PostgreSQL Kysely's migrator holds an advisory lock, so
 * instances starting together apply each migration once. On SQLite a second process that
 * loses the race gets SQLITE_BUSY when upgrading its read to a write; it rolls back and
 * tries again, and then finds the migrations already applied.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    ...(handle.dialect === 'postgres' ? { migrationTableSchema: handle.schema ?? 'public' } : {}),
  });
  for (let attempt = 1; ; attempt += 1) {
    const result: MigrationResultSet = await migrator.migrateToLatest();
    if (!result.error) {
      return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    }
    if (handle.dialect === 'sqlite' && isSqliteBusy(result.error) && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw result.error instanceof Error ? result.error : new Error(String(result.error));
  }
}
