import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/common/clock.js';
import { createContainer, type Container } from '../../src/container.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { createTestDatabase, openTestDatabase, type DatabaseKind, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  database: DatabaseHandle;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}

/** A full app over a fresh, migrated database of the given kind; requests go through app.inject. */
export async function buildTestApp(kind: DatabaseKind, options: { clock?: Clock; bodyLimitBytes?: number } = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase(kind);
  const database = await openTestDatabase(testDatabase);
  const container = createContainer(database, options.clock);
  const app = await buildApp({ bodyLimitBytes: options.bodyLimitBytes ?? 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
  await app.ready();
  return {
    app,
    container,
    database,
    testDatabase,
    async close() {
      await app.close();
      await container.learning.close();
      await database.close();
      await testDatabase.drop();
    },
  };
}
