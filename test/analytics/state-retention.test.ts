import { expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import { AnalyticsService } from '../../src/analytics/analytics.service.js';
import { FoldThread } from '../../src/analytics/fold/fold-thread.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, clearAnalytics, insertItems, readAggregates } from './support/raw-items.js';

const item = (id: string, over: Partial<AnalyticsItem>) => analyticsItem(id, D0, over);

const DAY = 24 * HOUR_MS;
const D0 = Date.parse('2026-10-01T00:00:00Z');

describeOnEveryDatabase('analytics: per-search states follow feedback retention, aggregates stay', (kind) => {
  const t = useTestDatabase(kind);

  it.each(['in process', 'on the fold thread'])(
    'removes a state once every item folded into it was received before the cutoff (%s)',
    async (where) => {
      await clearAnalytics(t.database);
      const runner = where === 'in process' ? null : new FoldThread(t.database.threadShare()!);
      try {
        // insertItems stores received_at = the item's timestamp.
        await insertItems(t.database, [
          // search q1 (session A): received on day 0 only
          item('I1', {}),
          item('I2', { userAction: 'click', eventTime: D0 + 60_000 }),
          // search q2 (session B): day 0, and a late click received on day 20
          item('I3', { sessionId: 'B', queryId: 'q2', queryHash: 'socks' }),
          item('I4', { sessionId: 'B', queryId: 'q2', queryHash: 'socks', userAction: 'click', eventTime: D0 + 20 * DAY }),
        ]);
        const clock = new TestClock(D0 + 35 * DAY);
        const stores = {
          folds: new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities),
          reads: new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities),
        };
        const service = new AnalyticsService({ ...stores, clock, batchSize: 2000, retentionDays: 30, foldRunner: runner });
        expect(await service.catchUp()).toBe(4);
        const before = await readAggregates(t.database);
        const keys = async () =>
          (await t.database.db.selectFrom('analytics_entities').select(['key', 'last_received']).orderBy('key').execute()).map((r) => [
            r.key,
            Number(r.last_received),
          ]);
        expect(await keys()).toEqual([
          ['p:A\nshoes', D0 + 60_000],
          ['p:B\nsocks', D0 + 20 * DAY],
          ['q:q1', D0 + 60_000],
          ['q:q2', D0 + 20 * DAY],
          ['s:A', D0 + 60_000],
          ['s:B', D0 + 20 * DAY],
        ]);
        // cutoff day 5: session A's three states go, session B's stay (its click was received on day 20)
        expect(await service.pruneStates()).toBe(3);
        expect((await keys()).map(([k]) => k)).toEqual(['p:B\nsocks', 'q:q2', 's:B']);
        expect(await readAggregates(t.database)).toEqual(before);
        // day 51: cutoff day 21, everything goes; without retention nothing would
        clock.set(D0 + 51 * DAY);
        expect(await service.pruneStates()).toBe(3);
        expect(await keys()).toEqual([]);
        expect(await readAggregates(t.database)).toEqual(before);
        expect(await new AnalyticsService({ ...stores, clock }).pruneStates()).toBe(0);
      } finally {
        await runner?.close();
      }
    },
  );
});
