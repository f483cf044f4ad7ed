import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { DatabaseTarget } from '../../src/storage/database.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The databases this run tests on: SQLite always, PostgreSQL when the probe reached it. */
export function databaseKinds(): DatabaseKind[] {
  return inject('postgresUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** The suite once per database of this run, named "<name> on sqlite" / "<name> on postgres". */
export function describeOnEveryDatabase(name: string, fn: (kind: DatabaseKind) => void): void {
  describe.each(databaseKinds())(`${name} on %s`, fn);
}

export interface TestDatabase {
  target: DatabaseTarget;
  /** Removes the file or schema. */
  drop(): Promise<void>;
}

/** A new, empty database: a temp SQLite file, or a fresh schema on the test PostgreSQL. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-test-'));
    return {
      target: { kind: 'sqlite', path: path.join(dir, `db-${suffix}.db`) },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = inject('postgresUrl');
  if (!url) throw new Error('PostgreSQL is not available in this run');
  const schema = `sl_test_${suffix}`;
  return {
    target: { kind: 'postgres', url, schema },
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

/** Opens and migrates a test database. */
export async function openTestDatabase(db: TestDatabase): Promise<DatabaseHandle> {
  const handle = await openDatabase(db.target, { poolSize: 5 });
  await migrateToLatest(handle);
  return handle;
}

/**
 * A fresh, migrated database for the enclosing suite: created before its tests, closed and dropped
 * after them. `database` is filled in by the suite's beforeAll, so read it inside tests and hooks only.
 */
export function useTestDatabase(kind: DatabaseKind): { database: DatabaseHandle } {
  const t = {} as { database: DatabaseHandle };
  let created: TestDatabase | undefined;
  beforeAll(async () => {
    created = await createTestDatabase(kind);
    t.database = await openTestDatabase(created);
  });
  afterAll(async () => {
    await t.database?.close();
    await created?.drop();
  });
  return t;
}
