import { describe, expect, it } from 'vitest';
import { buildClickLog, splitClickLogByQuery, subsetClickLogQueries, type ClickSession } from './click-log.js';

const s = (queryKey: string, docKeys: string[], clicks: number[]): ClickSession => ({
  queryKey,
  docKeys,
  clicks: docKeys.map((_, i) => clicks.includes(i)),
});
const features = (q: string, d: string): number[] => [q.length, Number(d.slice(1))];

describe('buildClickLog', () => {
  it('collapses identical lists and counts sessions, clicks and clicked-not-clicked pairs by hand', () => {
    const log = buildClickLog(
      [
        s('q', ['d1', 'd2', 'd3'], [0]),
        s('q', ['d1', 'd2', 'd3'], [0, 2]),
        s('q', ['d1', 'd2', 'd3'], [1]),
        s('q', ['d1', 'd2', 'd3'], []),
        s('q', ['d2', 'd1', 'd3'], [0]), // another list of the same query: its own group
        s('qq', ['d7'], [0]),
      ],
      features,
      ['len', 'doc'],
    );
    expect(log.queryKeys).toEqual(['q', 'qq']);
    expect(Array.from(log.groups)).toEqual([0, 3, 6, 7]);
    expect(Array.from(log.groupQuery)).toEqual([0, 0, 1]);
    expect(Array.from(log.sessions)).toEqual([4, 1, 1]);
    expect(log.docKeys).toEqual(['d1', 'd2', 'd3', 'd2', 'd1', 'd3', 'd7']);
    expect(Array.from(log.position)).toEqual([1, 2, 3, 1, 2, 3, 1]);
    expect(Array.from(log.clicks)).toEqual([2, 1, 1, 1, 0, 0, 1]);
    // Group 0: s1 d1>d2, d1>d3; s2 d1>d2, d3>d2; s3 d2>d1, d2>d3.
    expect(Array.from(log.pairOffset)).toEqual([0, 9, 18, 19]);
    expect(Array.from(log.clickedNotClicked.subarray(0, 9))).toEqual([0, 2, 1, 1, 0, 1, 0, 1, 0]);
    expect(Array.from(log.clickedNotClicked.subarray(9, 18))).toEqual([0, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(log.features.subarray(0, 4))).toEqual([1, 1, 1, 2]);
    expect(log.numRows).toBe(7);
  });

  it('cuts lists at maxDepth (same group for lists equal in their top) and rejects bad input', () => {
    const log = buildClickLog([s('q', ['d1', 'd2', 'd3'], [2]), s('q', ['d1', 'd2', 'd4'], [0])], features, ['len', 'doc'], 2);
    expect(Array.from(log.groups)).toEqual([0, 2]);
    expect(Array.from(log.sessions)).toEqual([2]);
    expect(Array.from(log.clicks)).toEqual([1, 0]);
    expect(() => buildClickLog([s('q', ['d1'], [])], features, ['len'])).toThrow(/1 values for 2|2 values for 1/);
    expect(() => buildClickLog([], features, [], 0)).toThrow(/maxDepth/);
  });
});

describe('subsets and splits by query', () => {
  const sessions = Array.from({ length: 40 }, (_, i) => s(`q${i % 10}`, [`d${i % 3}`, `d${(i + 1) % 3}`], [i % 2]));
  const log = buildClickLog(sessions, features, ['len', 'doc']);

  it('keeps every group of the chosen queries with its counts', () => {
    const sub = subsetClickLogQueries(log, [7, 2]);
    expect(sub.queryKeys).toEqual(['q7', 'q2']);
    const picked = [...log.groupQuery].flatMap((q, g) => (q === 2 || q === 7 ? [g] : []));
    expect(sub.sessions.length).toBe(picked.length);
    expect(Array.from(sub.sessions)).toEqual(picked.map((g) => log.sessions[g]));
    const pairs = picked.flatMap((g) => Array.from(log.clickedNotClicked.subarray(log.pairOffset[g], log.pairOffset[g + 1])));
    expect(Array.from(sub.clickedNotClicked)).toEqual(pairs);
    expect(sub.docKeys).toEqual(picked.flatMap((g) => log.docKeys.slice(log.groups[g], log.groups[g + 1])));
  });

  it('splits queries, never groups, seeded', () => {
    const { train, valid } = splitClickLogByQuery(log, 0.3, 5);
    expect(valid.queryKeys.length).toBe(3);
    expect(train.queryKeys.filter((q) => valid.queryKeys.includes(q))).toEqual([]);
    expect(train.sessions.length + valid.sessions.length).toBe(log.sessions.length);
    expect(train.numRows + valid.numRows).toBe(log.numRows);
    expect(splitClickLogByQuery(log, 0.3, 5).valid.queryKeys).toEqual(valid.queryKeys);
    expect(() => splitClickLogByQuery(log, 1, 5)).toThrow(/fraction/);
  });
});
