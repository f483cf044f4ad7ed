import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KyselyAnalyticsFolds } from '../../src/analytics/analytics-fold.kysely-store.js';
import type { Folder } from '../../src/analytics/analytics.store.js';
import { HOUR_MS, planFold, type AnalyticsItem } from '../../src/analytics/fold.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, backlogSize, clearAnalytics, fromScratch, insertItems, readAggregates } from './raw-items.js';

/**
 * The fold thread reads and plans a batch before its transaction (aggregateNext's readFirst, on
 * SQLite's cursor), so another fold, a prune or an erasure may change what it read before it
 * writes. The transaction must then notice and plan again, never count an item twice nor write a
 * stale state.
 */

const BASE = Date.parse('2026-11-20T00:00:00Z');
const item = (id: string, over: Partial<AnalyticsItem> = {}) => analyticsItem(id, BASE, { deviceType: 'mobile', language: 'en', ...over });

// On SQLite the two folds share one connection, whose transactions take turns in call order: work
// started from inside the first one's planner (which runs before its transaction) commits before
// the first one's transaction begins — exactly the race the checks are for.
describe('analytics: a batch read before its transaction on sqlite', () => {
  const t = useTestDatabase('sqlite');

  /** A planner that, the first time it is called, starts `race` and remembers it. */
  function racing(race: () => Promise<unknown>): { fold: Folder; raced: () => Promise<unknown> } {
    let started: Promise<unknown> | undefined;
    return {
      fold: (items, known) => {
        started ??= race();
        return planFold(items, known);
      },
      raced: () => started ?? Promise.resolve(),
    };
  }

  it('is planned again when another fold moved the cursor meanwhile (the cursor check)', async () => {
    await clearAnalytics(t.database);
    const first = item('ID000001');
    // Same search, session, attributes and a later time: folding it leaves every entity state as it was.
    const second = item('ID000002', { eventTime: BASE + 60_000, resultId: 'r2', position: 2 });
    const a = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    const b = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    await insertItems(t.database, [first]);
    expect(await a.aggregateNext(100, planFold, 0)).toBe(1);
    await insertItems(t.database, [second]);
    const race = racing(() => b.aggregateNext(100, planFold, 0));
    const folded = await a.aggregateNext(100, race.fold, 0, { readFirst: true });
    expect(await race.raced()).toBe(1);
    expect(folded).toBe(0);
    expect(await backlogSize(t.database)).toBe(0);
    expect(await readAggregates(t.database)).toEqual(fromScratch([first, second]));
  });

  it('is planned again inside the transaction when a state it read was pruned meanwhile (the state check)', async () => {
    const first = item('ID000001');
    const click = item('ID000002', { userAction: 'click', eventTime: BASE + 60_000 });
    const a = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    // What a plain fold writes: the first item, the states pruned, then the click as a search of its own.
    await clearAnalytics(t.database);
    await insertItems(t.database, [first]);
    await a.aggregateNext(100, planFold, 0);
    expect(await a.pruneEntities(Number.MAX_SAFE_INTEGER, 100)).toBeGreaterThan(0);
    await insertItems(t.database, [click]);
    await a.aggregateNext(100, planFold, 0);
    const expected = await readAggregates(t.database);

    await clearAnalytics(t.database);
    await insertItems(t.database, [first]);
    await a.aggregateNext(100, planFold, 0);
    await insertItems(t.database, [click]);
    const race = racing(() => a.pruneEntities(Number.MAX_SAFE_INTEGER, 100));
    expect(await a.aggregateNext(100, race.fold, 0, { readFirst: true })).toBe(1);
    expect(await race.raced()).toBeGreaterThan(0);
    expect(await readAggregates(t.database)).toEqual(expected);
  });

  it('counts nothing of the newest item erased between its read and the transaction (the rewind check)', async () => {
    await clearAnalytics(t.database);
    const a = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    const kept = item('ID000001', { sessionId: 'B', queryId: 'q2' });
    const erased = item('ID000002');
    await insertItems(t.database, [kept, erased]);
    const race = racing(() => t.database.db.deleteFrom('feedback_items').where('id', '=', erased.id).execute());
    const folded = await a.aggregateNext(100, race.fold, 0, { readFirst: true });
    await race.raced();
    expect(folded).toBe(1);
    expect(await readAggregates(t.database)).toEqual(fromScratch([kept]));
  });
});

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const itemArb = fc.record({
  sessionId: pick(['A', 'B', 'C']),
  queryId: pick(['q1', 'q2', 'q3', 'q4']),
  queryHash: pick(['shoes', 'socks', null]),
  resultId: pick(['r1', 'r2', null]),
  userAction: pick(['impression', 'click', 'purchase', 'search', null]),
  eventTime: fc.integer({ min: 0, max: 3 * HOUR_MS - 1 }).map((t) => BASE + t),
  position: fc.option(fc.integer({ min: 1, max: 25 }), { nil: null }),
  deviceType: pick(['mobile', 'desktop', null]),
  searchType: pick(['keyword', null]),
  language: pick(['en', null]),
  category: pick(['c1', null]),
  queryText: pick(['running shoes', null]),
  resultCount: pick([0, 7, null]),
});

describeOnEveryDatabase('analytics: folds that read first, racing plain folds, count every item once', (kind) => {
  const t = useTestDatabase(kind);

  it('after random interleavings of ingestion and pairs of concurrent folds (fixed seed)', async () => {
    const a = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    const b = new KyselyAnalyticsFolds(t.database.db, t.database.capabilities);
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 40 }),
        fc.array(
          fc.record({ insert: fc.integer({ min: 1, max: 10 }), batch: fc.integer({ min: 1, max: 8 }), bothReadFirst: fc.boolean() }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        async (raw, steps) => {
          await clearAnalytics(t.database);
          const items = raw.map((r, i): AnalyticsItem => ({ ...r, id: `ID${String(i).padStart(6, '0')}` }));
          const queue = [...items];
          let folded = 0;
          for (const step of steps) {
            await insertItems(t.database, queue.splice(0, step.insert));
            // On PostgreSQL one of the two may find the other holding the analytics lock (null).
            const counts = await Promise.all([
              a.aggregateNext(step.batch, planFold, 0, { readFirst: true }),
              b.aggregateNext(step.batch, planFold, 0, { readFirst: step.bothReadFirst }),
            ]);
            folded += (counts[0] ?? 0) + (counts[1] ?? 0);
          }
          await insertItems(t.database, queue.splice(0));
          for (;;) {
            const n = await a.aggregateNext(7, planFold, 0, { readFirst: true });
            folded += n ?? 0;
            if (n !== null && n < 7) break;
          }
          expect(folded).toBe(items.length);
          expect(await backlogSize(t.database)).toBe(0);
          expect(await readAggregates(t.database)).toEqual(fromScratch(items));
        },
      ),
      { seed: 20261127, numRuns: kind === 'sqlite' ? 50 : 20 },
    );
  }, 120_000);
});
