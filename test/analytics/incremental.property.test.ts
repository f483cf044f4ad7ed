import fc from 'fast-check';
import { expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { spanAnchorAt } from '../../src/analytics/fold/spans.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import {
  bucketQueriesFromHours,
  clearAnalytics,
  fromScratch,
  insertItems,
  readAggregates,
  readBucketQueries,
  readWindows,
  windowsFromHours,
} from './support/raw-items.js';

const BASE = Date.parse('2026-11-20T00:00:00Z');
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** Items over 6 hours, 3 sessions, 6 searches, 3 query hashes, every action and both recognised keys. */
const itemArb = fc.record({
  sessionId: pick(['A', 'B', 'C']),
  queryId: pick(['q1', 'q2', 'q3', 'q4', 'q5', 'q6']),
  queryHash: pick(['shoes', 'socks', 'hats', null]),
  resultId: pick(['r1', 'r2', 'r3', null]),
  userAction: pick(['impression', 'click', 'purchase', 'conversion', 'add_to_cart', 'search', null]),
  eventTime: fc.integer({ min: 0, max: 6 * HOUR_MS - 1 }).map((t) => BASE + t),
  position: fc.option(fc.integer({ min: 1, max: 25 }), { nil: null }),
  deviceType: pick(['mobile', 'desktop', null]),
  searchType: pick(['keyword', null]),
  language: pick(['en', 'de', null]),
  category: pick(['c1', null]),
  queryText: pick(['running shoes', 'Shoes', null]),
  resultCount: pick([0, 7, null]),
});

/** Items with ids in id order, inserted in a shuffled order (as concurrent commits land), and a schedule of ingestion and aggregation steps. */
const scenarioArb = fc.array(itemArb, { minLength: 1, maxLength: 50 }).chain((raw) =>
  fc.record({
    items: fc.constant(raw.map((r, i): AnalyticsItem => ({ ...r, id: `ID${String(i).padStart(6, '0')}` }))),
    order: fc.shuffledSubarray(
      raw.map((_, i) => i),
      { minLength: raw.length, maxLength: raw.length },
    ),
    steps: fc.array(
      fc.record({ insert: fc.integer({ min: 1, max: 12 }), batch: fc.integer({ min: 1, max: 9 }), runs: fc.integer({ min: 0, max: 3 }) }),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
  }),
);

describeOnEveryDatabase('analytics: incremental aggregates equal a from-scratch recomputation', (kind) => {
  const t = useTestDatabase(kind);

  it('after random interleavings of ingestion and aggregation batches (fixed seed)', async () => {
    const store = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ items, order, steps }) => {
        await clearAnalytics(t.database);
        const queue = order.map((i) => items[i]!);
        for (const step of steps) {
          await insertItems(t.database, queue.splice(0, step.insert));
          for (let r = 0; r < step.runs; r += 1) await store.aggregateNext(step.batch, planFold, 0);
        }
        await insertItems(t.database, queue.splice(0));
        while ((await store.aggregateNext(7, planFold, 0)) === 7);
        expect(await readAggregates(t.database)).toEqual(fromScratch(items));
      }),
      { seed: 20261122, numRuns: kind === 'sqlite' ? 60 : 25 },
    );
  }, 120_000);
});

describeOnEveryDatabase('analytics: span totals equal the hour rows they sum after random interleavings and anchor moves', (kind) => {
  const t = useTestDatabase(kind);

  // Items are over BASE … BASE + 6 h; anchors from 2 h before to 8 days after (so hours enter and
  // leave the 7-day span), moving either way, with late events folded after the anchor passed them.
  const anchorArb = fc.integer({ min: -2, max: 8 * 24 }).map((h) => BASE + h * HOUR_MS + 1234);

  it('(fixed seed)', async () => {
    const store = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.array(anchorArb, { minLength: 8, maxLength: 8 }), async ({ items, order, steps }, anchors) => {
        await clearAnalytics(t.database);
        const queue = order.map((i) => items[i]!);
        let n = 0;
        const at = () => anchors[n++ % anchors.length]!;
        for (const step of steps) {
          await insertItems(t.database, queue.splice(0, step.insert));
          for (let r = 0; r < step.runs; r += 1) await store.aggregateNext(step.batch, planFold, at());
        }
        await insertItems(t.database, queue.splice(0));
        const last = at();
        while ((await store.aggregateNext(7, planFold, last)) === 7);
        const anchor = spanAnchorAt(last);
        expect(await readWindows(t.database)).toEqual(await windowsFromHours(t.database, anchor));
        expect(await readBucketQueries(t.database)).toEqual(await bucketQueriesFromHours(t.database));
        expect(await readAggregates(t.database)).toEqual(fromScratch(items));
      }),
      { seed: 20261123, numRuns: kind === 'sqlite' ? 60 : 25 },
    );
  }, 120_000);
});
