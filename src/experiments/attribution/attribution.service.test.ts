import { describe, expect, it } from 'vitest';
import { emptyStats } from '../../vocabulary/index.js';
import { FakeExperimentData } from '../model/fake-experiment-data.js';
import type { AttributableItem } from '../model/attribution-records.js';
import { AttributionService } from './attribution.service.js';
import { FakeAttributionStore } from './fake-attribution.store.js';

const item = (n: number, sessionId: string, userAction: string): AttributableItem => ({
  id: `i${String(n).padStart(3, '0')}`,
  sessionId,
  queryId: 'q',
  userAction,
  rating: null,
  receivedAt: 2000 + n,
  position: 1,
  dwellTime: null,
  timeToClick: null,
  scrollDepth: null,
});

function setup(batchSize: number) {
  let now = 10_000;
  const feedback: AttributableItem[] = [];
  const data = new FakeExperimentData(() => feedback);
  data.phases.push({ experimentId: 'e', phase: 0, seed: 'e', configuration: null as never, startedAt: 1000, endedAt: null });
  const exposure = { experimentId: 'e', phase: 0, unitId: 'u', variantId: 'a', exposedAt: 1500, covariates: null };
  data.units.set('e\u00000\u0000u', { exposure, stats: emptyStats() });
  const service = new AttributionService(new FakeAttributionStore(data), { now: () => now }, batchSize);
  return { data, feedback, service, tick: (ms: number) => (now += ms) };
}

describe('AttributionService (fake store)', () => {
  it('works through the whole backlog in batches and says when it last caught up', async () => {
    const t = setup(4);
    for (let n = 0; n < 10; n += 1) t.feedback.push(item(n, n % 2 ? 'u' : 'stranger', n % 3 ? 'impression' : 'click'));
    expect(t.service.freshAsOf).toBeNull();
    expect(await t.service.catchUp()).toBe(10);
    expect(t.service.freshAsOf).toBe(10_000);
    expect(t.data.units.get('e\u00000\u0000u')!.stats).toMatchObject({ impressions: 3, clicks: 2 });
    t.tick(500);
    expect(await t.service.catchUp()).toBe(0);
    expect(t.service.freshAsOf).toBe(10_500);
  });

  it('lets concurrent callers share one run', async () => {
    const t = setup(2);
    for (let n = 0; n < 5; n += 1) t.feedback.push(item(n, 'u', 'click'));
    const [a, b] = await Promise.all([t.service.catchUp(), t.service.catchUp()]);
    expect([a, b]).toEqual([5, 5]);
    expect(t.data.units.get('e\u00000\u0000u')!.stats.clicks).toBe(5);
  });
});
