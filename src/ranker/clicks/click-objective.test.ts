import { describe, expect, it } from 'vitest';
import { createRng } from '../../random/index.js';
import { buildClickLog, type ClickLog, type ClickSession } from './click-log.js';
import { clickObjective, DEFAULT_PROPENSITY_CLIP, ipsWeights, type ClickObjectiveOptions } from './click-objective.js';

const features = (): number[] => [0];

/** Independent reference: every ordered pair with its weight, exact logistic, no distance scaling. */
function referenceGradient(weights: number[][], scores: number[], sessions: number): number[] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const rankOf = order.map((_, r) => order.indexOf(r));
  const disc = (i: number) => 1 / Math.log2(i + 2);
  const grad = scores.map(() => 0);
  for (let a = 0; a < scores.length; a++)
    for (let b = 0; b < scores.length; b++) {
      if (a === b || weights[a]![b] === 0) continue;
      const dz = Math.abs(disc(rankOf[a]!) - disc(rankOf[b]!));
      const rho = 1 / (1 + Math.exp(scores[a]! - scores[b]!));
      grad[a]! -= (weights[a]![b]! * dz * rho) / sessions;
      grad[b]! += (weights[a]![b]! * dz * rho) / sessions;
    }
  return grad;
}

function gradientOf(log: ClickLog, scores: number[], opts: ClickObjectiveOptions): Float64Array {
  const g = new Float64Array(log.numRows);
  const h = new Float64Array(log.numRows);
  clickObjective(log, { normalize: false, ...opts }).gradients(Float64Array.from(scores), g, h);
  return g;
}

describe('ipsWeights', () => {
  it('is 1 / max(p, clip) per position, by hand', () => {
    // Propensities 1, 0.5, 0.2, 0.08, 0 with the default clip 0.1: 1, 2, 5, then 10 twice (clipped).
    expect(Array.from(ipsWeights([1, 0.5, 0.2, 0.08, 0], DEFAULT_PROPENSITY_CLIP))).toEqual([1, 2, 5, 10, 10]);
    expect(Array.from(ipsWeights([1, 0.5, 0.2], 0.25))).toEqual([1, 2, 4]);
    expect(() => ipsWeights([1, 1.2], 0.1)).toThrow(/propensities\[1\]/);
    expect(() => ipsWeights([1], 0)).toThrow(/clip/);
  });
});

describe('pair weights of one group, by hand', () => {
  // Rows d1 d2 d3 at positions 1 2 3; sessions: {d1}, {d1, d3}, {d2}, {}.
  // C (clicked a, not b) = [[0,2,1],[1,0,1],[0,1,0]]; clicks = [2, 1, 1]; 4 sessions.
  const sessions: ClickSession[] = [[0], [0, 2], [1], []].map((c) => ({
    queryKey: 'q',
    docKeys: ['d1', 'd2', 'd3'],
    clicks: [0, 1, 2].map((i) => c.includes(i)),
  }));
  const log = buildClickLog(sessions, features, ['x']);
  const scores = [0.2, 1.1, -0.4];

  it('none: the clicked-not-clicked counts', () => {
    const expected = referenceGradient(
      [
        [0, 2, 1],
        [1, 0, 1],
        [0, 1, 0],
      ],
      scores,
      4,
    );
    gradientOf(log, scores, { debiasing: 'none' }).forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 5));
  });

  it('ips: clicks[a] / max(p_pos(a), clip) against every other row (propensities 1, 0.5, 0.05 → weights 1, 2, 10)', () => {
    const w = ipsWeights([1, 0.5, 0.05], 0.1);
    const expected = referenceGradient(
      [
        [0, 2, 2],
        [2, 0, 2],
        [10, 10, 0],
      ],
      scores,
      4,
    );
    gradientOf(log, scores, { debiasing: 'ips', weights: w }).forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 5));
  });

  it('unbiased-lambdamart: the first iteration (t± = 1) is the naive gradient, later ones reweight by 1/(t+ t−)', () => {
    const obj = clickObjective(log, { debiasing: 'unbiased-lambdamart', normalize: false });
    const g = new Float64Array(3);
    const h = new Float64Array(3);
    obj.gradients(Float64Array.from(scores), g, h);
    const naive = gradientOf(log, scores, { debiasing: 'none' });
    g.forEach((x, i) => expect(x).toBeCloseTo(naive[i]!, 12));
    const { clicked: tp, unclicked: tm } = obj.positionBias()!;
    expect(tp[0]).toBe(1);
    expect(tm[0]).toBe(1);
    obj.gradients(Float64Array.from(scores), g, h);
    const C = [
      [0, 2, 1],
      [1, 0, 1],
      [0, 1, 0],
    ];
    const weighted = C.map((row, a) => row.map((c, b) => c / (Math.max(tp[a]!, 0.1) * Math.max(tm[b]!, 1))));
    const expected = referenceGradient(weighted, scores, 4);
    g.forEach((x, i) => expect(x).toBeCloseTo(expected[i]!, 5));
  });
});

describe('collapsing is exact', () => {
  it('gives the mean of the per-session gradients, also for dependent (cascade) clicks', () => {
    const rng = createRng(7);
    const docs = ['a', 'b', 'c', 'd'];
    const sessions: ClickSession[] = Array.from({ length: 60 }, () => {
      // Cascade user: scans down, clicks with probability 0.4, and stops after a click half the time.
      let stopped = false;
      const clicks = docs.map(() => {
        if (stopped) return false;
        const click = rng.uniform() < 0.4;
        if (click && rng.uniform() < 0.5) stopped = true;
        return click;
      });
      return { queryKey: 'q', docKeys: docs, clicks };
    });
    const scores = [0.1, 0.7, -0.3, 0.2];
    for (const opts of [{ debiasing: 'none' as const }, { debiasing: 'ips' as const, weights: Float64Array.from([1, 2, 4, 8]) }]) {
      const collapsed = gradientOf(buildClickLog(sessions, features, ['x']), scores, { ...opts, normalize: true });
      const perSession = sessions.map((one) => gradientOf(buildClickLog([one], features, ['x']), scores, { ...opts, normalize: true }));
      collapsed.forEach((g, i) => expect(g).toBeCloseTo(perSession.reduce((sum, x) => sum + x[i]!, 0) / sessions.length, 12));
    }
  });
});

describe('IPS gradient expectation (PBM clicks, known relevance)', () => {
  // One query, five results shown in a fixed order; examination e_k and attraction γ known.
  const e = [1, 0.6, 0.4, 0.25, 0.15];
  const gamma = [0.2, 0.9, 0.1, 0.7, 0.5];
  const docs = ['a', 'b', 'c', 'd', 'e'];
  const scores = [0.4, -0.1, 0.3, 0.0, -0.5];
  const N = 400;
  const logs = 1000;

  /** A log whose counts are given directly (expected counts, so they may be fractional). */
  function expectedLog(clicks: number[], pairs: number[][]): ClickLog {
    const log = buildClickLog([{ queryKey: 'q', docKeys: docs, clicks: docs.map(() => false) }], features, ['x']);
    log.sessions[0] = N;
    log.clicks.set(clicks);
    log.clickedNotClicked.set(pairs.flat());
    return log;
  }

  function simulated(seed: number): ClickLog {
    const rng = createRng(seed);
    const sessions = Array.from({ length: N }, () => ({
      queryKey: 'q',
      docKeys: docs,
      clicks: docs.map((_, i) => rng.uniform() < e[i]! && rng.uniform() < gamma[i]!),
    }));
    return buildClickLog(sessions, features, ['x']);
  }

  const samples = (opts: ClickObjectiveOptions) => Array.from({ length: logs }, (_, i) => gradientOf(simulated(1000 + i), scores, opts));
  const meanAndSe = (xs: Float64Array[], i: number) => {
    const v = xs.map((x) => x[i]!);
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
    return { m, se: sd / Math.sqrt(v.length) };
  };

  it('averages to the full-information gradient within three standard errors per row', () => {
    // Full information: every result examined, so a result is clicked in N·γ of the sessions.
    const full = gradientOf(
      expectedLog(
        gamma.map((g) => N * g),
        gamma.map(() => gamma.map(() => 0)),
      ),
      scores,
      { debiasing: 'ips', weights: Float64Array.of(1) },
    );
    const ips = samples({ debiasing: 'ips', weights: ipsWeights(e, DEFAULT_PROPENSITY_CLIP) });
    // Measured (mean − full)/SE per row: −1.12, −0.72, −0.59, 1.67, 0.45; the naive gradient's worst is 740.
    for (let i = 0; i < docs.length; i++) {
      const { m, se } = meanAndSe(ips, i);
      expect(Math.abs(m - full[i]!)).toBeLessThan(3 * se);
    }
  });

  it('while the naive gradient misses its own full-information value by far more (the test can fail)', () => {
    const pairs = gamma.map((ga, a) => gamma.map((gb, b) => (a === b ? 0 : N * ga * (1 - gb))));
    const full = gradientOf(
      expectedLog(
        gamma.map((g) => N * g),
        pairs,
      ),
      scores,
      { debiasing: 'none' },
    );
    const naive = samples({ debiasing: 'none' });
    const worst = Math.max(...docs.map((_, i) => Math.abs(meanAndSe(naive, i).m - full[i]!) / meanAndSe(naive, i).se));
    expect(worst).toBeGreaterThan(10);
  });
});
