import { beforeAll, beforeEach, expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { ANALYTICS_LOCK, transactionLock } from '../../src/storage/advisory-locks.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, clearAnalytics, insertItems } from '../analytics/support/raw-items.js';

// The fold store folds feedback rows the database holds: it has no in-memory fake (the service's
// tests fold through the fake reads store instead), so its contract runs on every database only.
const H0 = Date.parse('2026-11-20T00:00:00Z');

const item = (id: string, over: Partial<AnalyticsItem>) => analyticsItem(id, H0, { sessionId: 's1', deviceType: 'mobile', ...over });

describeOnEveryDatabase('analytics fold store contract', (kind) => {
  const t = useTestDatabase(kind);
  let folds: KyselyAnalyticsFoldStore;
  let reads: KyselyAnalyticsReadsStore;
  beforeAll(async () => {
    folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    reads = new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities);
  });
  beforeEach(async () => clearAnalytics(t.database));

  it('folds at most `limit` items per call, counts what waits, and records freshness only at the end of the backlog', async () => {
    await insertItems(t.database, [item('A3', {}), item('A1', {}), item('A2', { userAction: 'click' })]);
    expect(await folds.backlogSize()).toBe(3);
    expect(await folds.aggregateNext(2, planFold, 111)).toBe(2);
    expect(await folds.backlogSize()).toBe(1);
    expect(await reads.freshAsOf()).toBeNull();
    expect(await folds.aggregateNext(2, planFold, 222)).toBe(1);
    expect(await folds.backlogSize()).toBe(0);
    expect(await reads.freshAsOf()).toBe(222);
    expect(await folds.aggregateNext(2, planFold, 333)).toBe(0);
    expect(await reads.freshAsOf()).toBe(333);
    const [hour] = await reads.totalHours({ dimension: '', value: '', fromHour: H0, toHour: H0 + HOUR_MS });
    expect(hour).toMatchObject({ hour: H0, counters: { searches: 1, impressions: 2, clicks: 1, abandoned: 0, first_clicks: 1 } });
  });

  it('answers null while another instance holds the analytics lock (PostgreSQL; SQLite serialises writers)', async () => {
    await insertItems(t.database, [item('B1', {})]);
    if (!t.database.capabilities.supportsAdvisoryLocks) return;
    await t.database.db.transaction().execute(async (trx) => {
      await transactionLock(trx, ANALYTICS_LOCK);
      expect(await folds.aggregateNext(10, planFold, 1)).toBeNull();
      expect(await folds.pruneEntities(Date.now(), 10)).toBeNull();
    });
    expect(await folds.aggregateNext(10, planFold, 1)).toBe(1);
  });
});
