import { describe, expect, it } from 'vitest';
import { fitClickModel } from '../fit.js';
import { inferSessionsFromClicksOnly } from './infer.js';

describe('inferSessionsFromClicksOnly', () => {
  const searches = [
    { queryHash: 'q', resultIds: ['a', 'b', 'c', 'd'], clickedIds: ['b'], timestamp: 5 },
    { queryHash: 'q', resultIds: ['c', 'a', 'b', 'd'], clickedIds: ['a', 'd'] },
    { queryHash: 'q', resultIds: ['a', 'b'], clickedIds: [] },
    { queryHash: 'q', resultIds: ['a', 'b'], clickedIds: ['zzz'] },
  ];
  const inferred = inferSessionsFromClicksOnly(searches);

  it('keeps ranks down to the last click (cascade assumption)', () => {
    expect(inferred.sessions).toEqual([
      { queryHash: 'q', resultIds: ['a', 'b'], clicks: [false, true], impressionsInferred: true, timestamp: 5 },
      { queryHash: 'q', resultIds: ['c', 'a', 'b', 'd'], clicks: [false, true, false, true], impressionsInferred: true },
    ]);
    expect(inferred.impressionsInferred).toBe(6);
    expect(inferred.searchesWithoutClicks).toBe(2);
    expect(inferred.clicksIgnored).toBe(1);
  });

  it('ignores clicks below maxDepth', () => {
    const deep = inferSessionsFromClicksOnly([{ queryHash: 'q', resultIds: ['a', 'b', 'c'], clickedIds: ['a', 'c'] }], 2);
    expect(deep.sessions[0]?.resultIds).toEqual(['a']);
    expect(deep.clicksIgnored).toBe(1);
  });

  it('is counted in the fit summary', () => {
    const logged = { queryHash: 'q', resultIds: ['a', 'b', 'c'], clicks: [false, false, false] };
    const model = fitClickModel([...inferred.sessions, logged], { algorithm: 'sdbn' });
    expect(model.summary.impressionsInferred).toBe(6);
    expect(model.summary.impressions).toBe(9);
  });
});
