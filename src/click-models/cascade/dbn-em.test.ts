import { describe, expect, it } from 'vitest';
import { fitClickModel } from '../fit.js';
import { simulateClickLog } from '../sessions/simulate.js';
import type { SearchSession } from '../types.js';

interface Stats {
  numA: Map<string, number>;
  denA: Map<string, number>;
  numS: Map<string, number>;
  denS: Map<string, number>;
  lamNum: number;
  lamDen: number;
}

const add = (m: Map<string, number>, k: string, v: number): void => {
  m.set(k, (m.get(k) ?? 0) + v);
};

/**
 * Expected complete-data counts of one DBN EM step by brute force: enumerate the number
 * of examined ranks, every attractiveness vector and every satisfaction vector, weight
 * each configuration consistent with the clicks by its probability. Independent of the
 * closed-form posteriors in dbn.ts.
 */
function bruteForceStats(
  sessions: readonly SearchSession[],
  alpha: (key: string) => number,
  sigma: (key: string) => number,
  lambda: number,
): Stats {
  const stats: Stats = { numA: new Map(), denA: new Map(), numS: new Map(), denS: new Map(), lamNum: 0, lamDen: 0 };
  for (const session of sessions) {
    const n = session.resultIds.length;
    const keys = session.resultIds.map((d) => `${session.queryHash}/${d}`);
    const configs: { p: number; examined: number; a: number[]; s: number[] }[] = [];
    for (let examined = 1; examined <= n; examined += 1) {
      for (let aBits = 0; aBits < 1 << n; aBits += 1) {
        for (let sBits = 0; sBits < 1 << n; sBits += 1) {
          const a = keys.map((_, r) => (aBits >> r) & 1);
          const s = keys.map((_, r) => (sBits >> r) & 1);
          let p = 1;
          for (let r = 0; r < n && p > 0; r += 1) {
            const click = r < examined && a[r] === 1 ? 1 : 0;
            if (click !== (session.clicks[r] ? 1 : 0)) p = 0;
            if (click === 0 && s[r] === 1) p = 0; // S is only defined after a click
            const k = keys[r] as string;
            p *= a[r] === 1 ? alpha(k) : 1 - alpha(k);
            if (click === 1) p *= s[r] === 1 ? sigma(k) : 1 - sigma(k);
            if (r < examined - 1) p *= s[r] === 1 ? 0 : lambda;
            if (r === examined - 1 && examined < n) p *= s[r] === 1 ? 1 : 1 - lambda;
          }
          if (p > 0) configs.push({ p, examined, a, s });
        }
      }
    }
    const total = configs.reduce((sum, c) => sum + c.p, 0);
    for (const { p, examined, s } of configs) {
      const w = p / total;
      keys.forEach((k, r) => {
        // α's update is clicks over expected examinations (see dbn.ts).
        add(stats.numA, k, session.clicks[r] ? w : 0);
        add(stats.denA, k, r < examined ? w : 0);
        if (session.clicks[r]) {
          add(stats.numS, k, w * (s[r] as number));
          add(stats.denS, k, w);
        }
        if (r < examined && r < n - 1 && s[r] === 0) {
          stats.lamDen += w;
          if (r + 1 < examined) stats.lamNum += w;
        }
      });
    }
  }
  return stats;
}

describe('DBN EM step', () => {
  it('matches a brute-force enumeration of the hidden variables', () => {
    const sim = simulateClickLog({ model: 'dbn', seed: 11, queries: 3, docsPerQuery: 4, depth: 4, sessions: 300 });
    const config = { maxDepth: 4, prior: { positive: 1, negative: 1 }, examinationPrior: { positive: 1, negative: 1 } };
    // fitDbn starts from the closed-form SDBN and λ = 0.9.
    const start = fitClickModel(sim.sessions, { algorithm: 'sdbn', ...config });
    const startOf = (key: string) => {
      const [q, d] = key.split('/') as [string, string];
      return start.estimate(q, d) as NonNullable<ReturnType<typeof start.estimate>>;
    };
    const stats = bruteForceStats(
      sim.sessions,
      (k) => startOf(k).attractiveness,
      (k) => startOf(k).satisfaction as number,
      0.9,
    );

    const oneStep = fitClickModel(sim.sessions, { algorithm: 'dbn', iterations: 1, ...config });
    expect(oneStep.summary.iterations).toBe(1);
    for (const e of oneStep.estimates()) {
      const k = `${e.queryHash}/${e.resultId}`;
      const alpha = ((stats.numA.get(k) ?? 0) + 1) / ((stats.denA.get(k) ?? 0) + 2);
      const sigma = ((stats.numS.get(k) ?? 0) + 1) / ((stats.denS.get(k) ?? 0) + 2);
      expect(e.attractiveness).toBeCloseTo(alpha, 10);
      expect(e.satisfaction as number).toBeCloseTo(sigma, 10);
    }
    const lambda = (stats.lamNum + 1) / (stats.lamDen + 2);
    expect(oneStep.toJSON().params.continuation as number).toBeCloseTo(lambda, 10);
  });
});
