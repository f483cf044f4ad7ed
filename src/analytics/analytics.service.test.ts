import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../common/errors.js';
import { DAY_MS } from '../common/time.js';
import { AnalyticsService, type AnalyticsServiceDependencies, type RelevancePort } from './analytics.service.js';
import { analyticsItem } from '../../test/analytics/support/analytics-item.js';
import { planFold } from './fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from './model/counters.js';
import { FakeAnalyticsFoldStore } from './store/fake-fold.store.js';
import { FakeAnalyticsReadsStore } from './store/fake-reads.store.js';
import type { Folder } from './store/fold.store.js';

// AnalyticsService over the in-memory reads (test/contract/analytics-reads.contract.test.ts holds
// them to the Kysely store) and a fold store that folds a list of pending items into them.

const NOW = Date.parse('2026-11-20T12:00:00Z');
const D1 = Date.parse('2026-11-18T00:00:00Z');

let nextId = 0;
function item(over: Partial<AnalyticsItem>): AnalyticsItem {
  nextId += 1;
  return analyticsItem(`I${String(nextId).padStart(6, '0')}`, D1 + HOUR_MS, { sessionId: 's1', deviceType: 'mobile', ...over });
}

/** Two searches for "shoes" on day 1 (one clicked at position 2), one for "socks" on day 2 from a desktop. */
const ITEMS = (): AnalyticsItem[] => [
  item({ queryId: 'q1', resultId: 'r1', position: 1, queryText: 'Shoes' }),
  item({ queryId: 'q1', resultId: 'r2', position: 2 }),
  item({ queryId: 'q1', resultId: 'r2', position: 2, userAction: 'click', eventTime: D1 + HOUR_MS + 5_000 }),
  item({ queryId: 'q2', sessionId: 's2', resultId: 'r1', position: 1, eventTime: D1 + 3 * HOUR_MS }),
  item({ queryId: 'q3', sessionId: 's3', queryHash: 'socks', deviceType: 'desktop', eventTime: D1 + DAY_MS + HOUR_MS }),
];

function world(over: Partial<AnalyticsServiceDependencies> = {}, pending: AnalyticsItem[] = ITEMS()) {
  const reads = new FakeAnalyticsReadsStore();
  const calls: { limit: number; fold: Folder; startedAt: number }[] = [];
  const pruned: { cutoff: number; limit: number }[] = [];
  let now = NOW;
  // The in-memory fold store (held to the Kysely one by test/contract/analytics-fold.contract.test.ts),
  // recording each call; pruning answers fixed counts, to drive the service's prune loop.
  const store = new FakeAnalyticsFoldStore(reads);
  store.add(pending);
  const folds: AnalyticsServiceDependencies['folds'] = {
    async aggregateNext(limit, fold, startedAt) {
      calls.push({ limit, fold, startedAt });
      now += 1;
      return store.aggregateNext(limit, fold, startedAt);
    },
    async pruneEntities(cutoff, limit) {
      pruned.push({ cutoff, limit });
      return pruned.length < 3 ? limit : 7;
    },
  };
  const service = new AnalyticsService({ folds, reads, clock: { now: () => now }, ...over });
  return { service, reads, calls, pruned };
}

const relevance: RelevancePort = {
  async relevance(modelId, _queryHash, resultIds) {
    if (modelId === 'missing') throw new NotFoundError('model missing not found');
    return { version: 3, relevance: new Map(resultIds.map((id) => [id, id === 'r1' ? 0.9 : null])) };
  },
};

describe('AnalyticsService', () => {
  it('folds the backlog in batches until one comes back short, with the pure fold plan; concurrent callers share one run', async () => {
    const { service, calls } = world({ batchSize: 2 });
    const [a, b] = await Promise.all([service.catchUp(), service.catchUp()]);
    expect([a, b]).toEqual([5, 5]);
    expect(calls.map((c) => c.limit)).toEqual([2, 2, 2]);
    expect(calls.every((c) => c.fold === planFold)).toBe(true);
    expect(await service.catchUp()).toBe(0);
  });

  it('answers the overview from the aggregates: totals, a daily series with its distinct queries, the histogram and freshness', async () => {
    const { service } = world();
    await service.catchUp();
    const o = await service.overview({ from: '2026-11-17T00:00:00Z', to: '2026-11-20T00:00:00Z' });
    expect(o.window).toEqual({ from: '2026-11-17T00:00:00.000Z', to: '2026-11-20T00:00:00.000Z' });
    expect(o.dataFreshAsOf).toBe(new Date(NOW).toISOString());
    expect(o.totals).toMatchObject({ searches: 3, sessions: 3, impressions: 4, clicks: 1, ctr: 0.25, distinctQueries: 2 });
    expect(o.totals.abandonmentRate).toBeCloseTo(2 / 3);
    expect(o.series.map((p) => [p.start.slice(0, 10), p.searches, p.distinctQueries])).toEqual([
      ['2026-11-17', 0, 0],
      ['2026-11-18', 2, 1],
      ['2026-11-19', 1, 1],
    ]);
    expect(o.histogram[1]).toEqual({ position: '2', firstClicks: 1, share: 1 });
    const mobile = await service.overview({
      from: '2026-11-17T00:00:00Z',
      to: '2026-11-20T00:00:00Z',
      dimension: 'deviceType',
      value: 'mobile',
      interval: 'hour',
    });
    expect(mobile).toMatchObject({
      dimension: 'deviceType',
      value: 'mobile',
      interval: 'hour',
      totals: { searches: 2, distinctQueries: 1 },
    });
    expect(mobile.series).toHaveLength(72);
  });

  it('answers one query: its figures and share, its results by mean position with the click model’s relevance', async () => {
    const { service } = world({ relevance });
    await service.catchUp();
    const window = { from: '2026-11-17T00:00:00Z', to: '2026-11-20T00:00:00Z' };
    const q = await service.query('shoes', { ...window, interval: 'day' });
    expect(q).toMatchObject({ queryHash: 'shoes', queryText: 'Shoes', relevanceModel: { modelId: 'default', version: 3, reason: null } });
    expect(q.figures).toMatchObject({ searches: 2, impressions: 3, clicks: 1 });
    expect(q.figures.share).toBeCloseTo(2 / 3);
    expect(q.results.map((r) => [r.resultId, r.impressions, r.clicks, r.meanPosition, r.relevance])).toEqual([
      ['r1', 2, 0, 1, 0.9],
      ['r2', 1, 1, 2, null],
    ]);
    expect(q.positions).toEqual([
      { position: 1, impressions: 2, clicks: 0, ctr: 0 },
      { position: 2, impressions: 1, clicks: 1, ctr: 1 },
    ]);
    await expect(service.query('hats', window)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.query('shoes', { ...window, model: 'missing' })).rejects.toBeInstanceOf(NotFoundError);
    const without = world();
    await without.service.catchUp();
    expect((await without.service.query('shoes', window)).relevanceModel).toEqual({
      modelId: 'default',
      version: null,
      reason: 'no click models in this deployment',
    });
  });

  it('lists queries with the window it answered, and refuses a reversed window', async () => {
    const { service } = world();
    await service.catchUp();
    const page = await service.queries({ from: '2026-11-17T00:00:00Z', to: '2026-11-20T00:00:00Z', minSearches: 1 });
    expect(page.items.map((r) => [r.queryHash, r.searches])).toEqual([
      ['shoes', 2],
      ['socks', 1],
    ]);
    expect(page).toMatchObject({ dimension: null, value: null, nextCursor: null });
    await expect(service.queries({ from: '2026-11-20T00:00:00Z', to: '2026-11-17T00:00:00Z' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('prunes entity states past FEEDBACK_RETENTION_DAYS in batches of 1 000, and none without retention', async () => {
    const kept = world();
    expect(await kept.service.pruneStates()).toBe(0);
    expect(kept.pruned).toEqual([]);
    const pruning = world({ retentionDays: 30 });
    expect(await pruning.service.pruneStates()).toBe(2007);
    expect(pruning.pruned).toEqual([1, 2, 3].map(() => ({ cutoff: NOW - 30 * DAY_MS, limit: 1000 })));
  });

  it('folds and prunes on the fold runner when it has one, in its own batch size', async () => {
    const drained: number[][] = [];
    const foldRunner = {
      drain: async (batchSize: number, now: number) => (drained.push([batchSize, now]), 42),
      prune: async () => null,
    };
    const { service, calls, pruned } = world({ foldRunner, batchSize: 10, threadBatchSize: 1000, retentionDays: 1 });
    expect(await service.catchUp()).toBe(42);
    expect(drained).toEqual([[1000, NOW]]);
    expect(await service.pruneStates()).toBe(0);
    expect([calls, pruned]).toEqual([[], []]);
  });
});
