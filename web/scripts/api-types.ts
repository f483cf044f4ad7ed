/**
 * The service's own OpenAPI document, read by building the app in process (in-memory SQLite, no
 * listener). packages/client/scripts/api-types.ts turns it into the one generated types file,
 * packages/client/src/api-schema.ts, which the dashboard imports too.
 */
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/common/clock.js';
import { createContainer } from '../../src/container.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({ kind: 'sqlite', path: ':memory:' });
  const container = createContainer(database, systemClock, {});
  try {
    await migrateToLatest(database);
    const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
    try {
      await app.ready();
      return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    } finally {
      await app.close();
    }
  } finally {
    await container.learning.close();
    await database.close();
  }
}
