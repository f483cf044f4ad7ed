import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export type FaultDatabaseKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL when the global probe reached the test server (REQUIRE_POSTGRES=1 fails the run otherwise). */
export function faultDatabaseKinds(): FaultDatabaseKind[] {
  return inject('postgresUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface FaultDatabase {
  /** Environment for `node dist/cli.js serve`. */
  env: Record<string, string>;
  /** For SQLite: the database file. */
  file?: string;
  dir?: string;
  drop(): Promise<void>;
}

/** A temp SQLite file, or a fresh schema on the shared test PostgreSQL (the server creates it). */
export function createFaultDatabase(kind: FaultDatabaseKind): FaultDatabase {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-faults-'));
    const file = path.join(dir, 'searchloop.db');
    return { env: { DATABASE_URL: `sqlite://${file}` }, file, dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const url = inject('postgresUrl');
  if (!url) throw new Error('PostgreSQL is not available in this run');
  const schema = `sl_fault_${suffix}`;
  return {
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema },
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
