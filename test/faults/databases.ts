import path from 'node:path';
import { createTestDatabase, databaseKinds, type DatabaseKind } from '../support/test-database.js';

export type FaultDatabaseKind = DatabaseKind;

/** SQLite always; PostgreSQL when the global probe reached the test server (REQUIRE_POSTGRES=1 fails the run otherwise). */
export const faultDatabaseKinds = databaseKinds;

export interface FaultDatabase {
  /** Environment for `node dist/cli/cli.js serve`. */
  env: Record<string, string>;
  /** For SQLite: the database file. */
  file?: string;
  dir?: string;
  drop(): Promise<void>;
}

/** The test harness's fresh database (a temp SQLite file or PostgreSQL schema), as server environment. */
export async function createFaultDatabase(kind: FaultDatabaseKind): Promise<FaultDatabase> {
  const { target, drop } = await createTestDatabase(kind);
  if (target.kind === 'sqlite')
    return { env: { DATABASE_URL: `sqlite://${target.path}` }, file: target.path, dir: path.dirname(target.path), drop };
  return { env: { DATABASE_URL: target.url, ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}) }, drop };
}
