import { describe, expect, it } from 'vitest';
import type { LoggedSearch } from '../types.js';
import { simulatePbmLog } from '../simulation/simulate.js';
import { harvestPropensities } from './harvest.js';

const search = (sessionId: string, resultIds: string[], clicked: number[]): LoggedSearch => ({
  queryHash: 'q',
  sessionId,
  resultIds,
  clicks: resultIds.map((_, r) => clicked.includes(r + 1)),
  satisfied: resultIds.map(() => false),
});

describe('harvestPropensities', () => {
  it('recovers a simulated PBM examination curve within ±0.03 when two rankers place results differently', () => {
    const log = simulatePbmLog({ seed: 11, queries: 200, docsPerQuery: 12, searches: 60_000, rankers: 3 });
    const estimate = harvestPropensities(log.searches, { bootstrap: 20 });
    expect(estimate.method).toBe('allpairs');
    expect(estimate.harvestedPairs).toBeGreaterThan(1000);
    expect(estimate.positions).toHaveLength(10);
    expect(estimate.positions[0]).toEqual({ position: 1, estimate: 1, interval: [1, 1], support: expect.any(Number) });
    for (const p of estimate.positions) {
      expect(Math.abs(p.estimate - (log.examination[p.position - 1] as number))).toBeLessThanOrEqual(0.03);
      expect(p.support).toBeGreaterThan(0);
      expect(p.interval[0]).toBeLessThanOrEqual(p.estimate);
      expect(p.interval[1]).toBeGreaterThanOrEqual(p.estimate);
    }
  });

  it('computes the swap ratio by hand for one result seen at two positions', () => {
    // Result a: at rank 1 in 4 searches (2 clicks), at rank 2 in 2 searches (1 click).
    // n1 = 4, c1 = 2, n2 = 2, c2 = 1; M[1][2] = 2·n1·c2/(n1+n2) = 8/6, M[2][1] = 2·n2·c1/(n1+n2) = 8/6,
    // so p2/p1 = 1 (both positions have CTR 1/2).
    // Result b: at rank 2 in 4 searches (1 click), at rank 1 in 2 searches (1 click).
    // M[1][2] += 2·2·1/6 = 4/6, M[2][1] += 2·4·1/6 = 8/6; totals 12/6 and 16/6: p2/p1 = 12/16 = 0.75.
    const searches = [
      search('s1', ['a', 'b'], [1]),
      search('s2', ['a', 'b'], [1]),
      search('s3', ['a', 'b'], [2]),
      search('s4', ['a', 'b'], []),
      search('s5', ['b', 'a'], [1, 2]),
      search('s6', ['b', 'a'], []),
    ];
    // b at rank 2 in s1–s4 has one click (s3); b at rank 1 in s5–s6 one click (s5). a at rank 2: one click (s5).
    const estimate = harvestPropensities(searches, { maxDepth: 2, bootstrap: 10 });
    expect(estimate.harvestedPairs).toBe(2);
    expect(estimate.positions[1]?.estimate).toBeCloseTo(0.75, 12);
    expect(estimate.positions[1]?.support).toBe(2);
  });

  it('reports support 0 and the interval [0, 1] where no harvested pair reaches a position', () => {
    // The same list every time: nothing was ever shown at two positions.
    const searches = Array.from({ length: 50 }, (_, i) => search(`s${i}`, ['a', 'b', 'c'], i % 3 === 0 ? [1] : [2]));
    const estimate = harvestPropensities(searches, { maxDepth: 3, bootstrap: 10 });
    expect(estimate.harvestedPairs).toBe(0);
    expect(estimate.positions.slice(1)).toEqual([
      { position: 2, estimate: 1, interval: [0, 1], support: 0 },
      { position: 3, estimate: 1, interval: [0, 1], support: 0 },
    ]);
  });

  it('splits by context and is reproducible for a seed', () => {
    const log = simulatePbmLog({ seed: 3, queries: 30, docsPerQuery: 8, searches: 3000, rankers: 2 });
    const searches = log.searches.map((s, i) => ({ ...s, context: i % 2 === 0 ? 'mobile' : null }));
    const a = harvestPropensities(searches, { bootstrap: 15, byContext: true, seed: 5 });
    const b = harvestPropensities(searches, { bootstrap: 15, byContext: true, seed: 5 });
    expect(a).toEqual(b);
    expect(Object.keys(a.byContext ?? {})).toEqual(['mobile', 'unknown']);
    expect(a.byContext?.mobile).toHaveLength(10);
  });
});
