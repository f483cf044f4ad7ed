import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { Clock } from '../../src/common/clock.js';
import { createContainer, type Container, type ContainerOptions } from '../../src/container.js';
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
export interface TestAppOptions extends Partial<AppOptions> {
  clock?: Clock;
  envApiKeys?: ContainerOptions['envApiKeys'];
  /** Fold analytics on the worker thread, as the server does by default (ANALYTICS_FOLD_THREAD). */
  analyticsFoldThread?: boolean;
  /** Offline evaluations' options (e.g. a lower background threshold). */
  evaluation?: ContainerOptions['evaluation'];
}

export async function buildTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase(kind);
  const database = await openTestDatabase(testDatabase);
  const { clock, envApiKeys, analyticsFoldThread, evaluation, ...appOptions } = options;
  const container = createContainer(database, clock, { envApiKeys, analyticsFoldThread, evaluation });
  // TEST_LOG=error (or any level) shows the app's logs while debugging a test.
  const logger = process.env.TEST_LOG ? { level: process.env.TEST_LOG } : false;
  const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger, ...appOptions }, container);
  await app.ready();
  return {
    app,
    container,
    database,
    testDatabase,
    async close() {
      await app.close();
      await container.close();
      await database.close();
      await testDatabase.drop();
    },
  };
}

/**
 * A test app for the enclosing suite: built before its tests, closed after them. The returned
 * object is filled in by the suite's beforeAll, so read its fields inside tests and hooks only.
 */
export function useTestApp(kind: DatabaseKind, options: TestAppOptions = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await buildTestApp(kind, options));
  });
  afterAll(async () => {
    await t.close?.();
  });
  return t;
}
