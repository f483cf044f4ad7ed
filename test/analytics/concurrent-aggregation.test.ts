import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsModule, type AnalyticsModule } from '../../src/analytics/analytics.module.js';
import type { AnalyticsItem } from '../../src/analytics/model/counters.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { createTestDatabase, databaseKinds, openTestDatabase, type TestDatabase } from '../support/test-database.js';
import { TestClock } from '../support/test-clock.js';
import { backlogSize, fromScratch, generateItems, insertItems, readAggregates } from './support/raw-items.js';

const BASE = Date.parse('2026-11-20T00:00:00Z');

// Two instances (two pools, two analytics modules) over one PostgreSQL schema, as two app
// replicas run: each item is folded once, by whichever instance holds the lock.
describe.skipIf(!databaseKinds().includes('postgres'))('analytics: exactly once under concurrent aggregation on postgres', () => {
  let testDatabase: TestDatabase;
  const handles: DatabaseHandle[] = [];
  const modules: AnalyticsModule[] = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase('postgres');
    for (let i = 0; i < 2; i += 1) {
      const database = await openTestDatabase(testDatabase);
      handles.push(database);
      modules.push(createAnalyticsModule({ database, clock: new TestClock(), batchSize: 150 }));
    }
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    await testDatabase.drop();
  });

  it('folds every item exactly once and ends equal to a from-scratch recomputation', async () => {
    const [a, b] = modules.map((m) => m.services.analyticsService) as [
      AnalyticsModule['services']['analyticsService'],
      AnalyticsModule['services']['analyticsService'],
    ];
    const all: AnalyticsItem[] = [];
    let folded = 0;
    for (let round = 0; round < 6; round += 1) {
      const items = generateItems(500, 100 + round, round * 500, BASE);
      all.push(...items);
      // Ingestion on one instance while both aggregate (concurrent calls on one instance share a run, so one call each).
      const counts = await Promise.all([insertItems(handles[round % 2]!, items).then(() => 0), a.catchUp(), b.catchUp()]);
      folded += counts.reduce((s, n) => s + n, 0);
    }
    for (;;) {
      const counts = await Promise.all([a.catchUp(), b.catchUp()]);
      folded += counts[0] + counts[1];
      if ((await backlogSize(handles[0]!)) === 0) break;
    }
    expect(folded).toBe(all.length);
    expect(await readAggregates(handles[0]!)).toEqual(fromScratch(all));
  }, 120_000);
});
