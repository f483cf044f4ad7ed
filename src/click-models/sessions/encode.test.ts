import { describe, expect, it } from 'vitest';
import { aggregateCells } from '../position/cells.js';
import { countLog, createSessionEncoder, encodeSessions } from './encode.js';
import { simulateClickLog } from './simulate.js';

const sim = simulateClickLog({ model: 'dbn', seed: 9, queries: 10, docsPerQuery: 8, depth: 6, sessions: 3000 });

describe('encodeSessions', () => {
  const log = encodeSessions(sim.sessions, 6);

  it('matches a streaming encoder that has to grow its buffers', () => {
    const encoder = createSessionEncoder(6, 1);
    for (const s of sim.sessions) encoder.add(s);
    const streamed = encoder.finish();
    expect(streamed.sessionCount).toBe(3000);
    expect(Array.from(streamed.pairs)).toEqual(Array.from(log.pairs));
    expect(Array.from(streamed.clicks)).toEqual(Array.from(log.clicks));
    expect(streamed.pairDoc).toEqual(log.pairDoc);
  });

  it('gives one id per (query, document) pair', () => {
    expect(log.pairCount).toBe(80);
    expect(log.queries).toHaveLength(10);
    const first = sim.sessions[0];
    const p = log.pairs[0] as number;
    expect(log.pairDoc[p]).toBe(first?.resultIds[0]);
    expect(log.queries[log.pairQuery[p] as number]).toBe(first?.queryHash);
  });

  it('pads short sessions with -1', () => {
    const short = encodeSessions([{ queryHash: 'q', resultIds: ['a'], clicks: [true] }], 3);
    expect(Array.from(short.pairs)).toEqual([0, -1, -1]);
    expect(Array.from(short.lengths)).toEqual([1]);
  });
});

describe('aggregateCells', () => {
  const log = encodeSessions(sim.sessions, 6);
  const counts = countLog(log);

  it.each([false, true])('preserves impression and click totals (keyed by previous click: %s)', (byPrev) => {
    const cells = aggregateCells(log, byPrev);
    const sum = (a: Float64Array): number => a.reduce((x, y) => x + y, 0);
    expect(sum(cells.impressions)).toBe(counts.impressions);
    expect(sum(cells.clicks)).toBe(counts.clicks);
    const perPair = new Float64Array(log.pairCount);
    for (let i = 0; i < cells.count; i += 1) {
      const pair = cells.pair[i] as number;
      perPair[pair] = (perPair[pair] as number) + (cells.impressions[i] as number);
    }
    expect(Array.from(perPair)).toEqual(Array.from(counts.pairImpressions));
  });

  it('keys UBM cells by (rank, rank of previous click)', () => {
    const log2 = encodeSessions(
      [
        { queryHash: 'q', resultIds: ['a', 'b', 'c'], clicks: [true, false, true] },
        { queryHash: 'q', resultIds: ['a', 'b', 'c'], clicks: [false, false, false] },
      ],
      3,
    );
    const cells = aggregateCells(log2, true);
    const codes = Array.from(cells.code).sort((x, y) => x - y);
    // a at rank 1 (no previous click) → 0; b at rank 2 after a click at 1 → 1·4+1,
    // b with none → 4; c at rank 3 after a click at 1 → 2·4+1, with none → 8
    expect(codes).toEqual([0, 4, 5, 8, 9]);
  });
});
