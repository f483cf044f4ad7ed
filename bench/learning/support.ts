import { buildApp } from '../../src/app.js';
import { createContainer, type Container } from '../../src/container.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The real app on a fresh SQLite file (or DATABASE_URL), requests in-process via app.inject. */
export async function benchApp(): Promise<{
  app: FastifyInstance;
  container: Container;
  database: DatabaseHandle;
  close(): Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-bench-'));
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(
    url?.startsWith('postgres')
      ? { kind: 'postgres', url, schema: `bench_${process.pid}` }
      : { kind: 'sqlite', path: path.join(dir, 'bench.db') },
  );
  await migrateToLatest(database);
  const container = createContainer(database);
  const app = await buildApp({ bodyLimitBytes: 64 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
  await app.ready();
  return {
    app,
    container,
    database,
    async close() {
      await app.close();
      await container.learning.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
