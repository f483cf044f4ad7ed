/**
 * The naive estimator the position-aware ones must beat: each (query, document)'s raw logged CTR
 * (clicks ÷ impressions, at whatever positions it was shown, no position correction) is taken as its
 * click probability wherever the candidate puts it; a document never shown counts as never clicked.
 * Metrics are the same plug-ins as the library's (clicks independent), the baseline is the observed
 * on-policy value, and the 95 % interval is a Poisson bootstrap over sessions (percentile), like the
 * library's default.
 */
import { createRng } from '../../src/random/index.js';
import type { SimulatedLog } from './logs.js';
import { DEPTH, METRICS, observedValue, type Metric, type MetricValues } from './users.js';
import type { Policy, World } from './world.js';

export interface Interval {
  estimate: number;
  interval: [number, number];
}
export type Prediction = Record<Metric, Interval>;

/** Plug-in metric values of a list whose per-position click probabilities are `p`. */
export function plugIn(p: readonly number[]): MetricValues {
  let none = 1;
  let clicks = 0;
  let mrr = 0;
  for (let k = 0; k < p.length; k++) {
    clicks += p[k]!;
    mrr += (none * p[k]!) / (k + 1);
    none *= 1 - p[k]!;
  }
  return { mrr, clicks_per_search: clicks, 'ctr@10': clicks / DEPTH, abandonment_rate: none };
}

interface Sums {
  imp: Float64Array;
  clk: Float64Array;
  perQuery: Float64Array;
  baseline: MetricValues;
  total: number;
}

/** Predicted difference (candidate − logged baseline) per candidate and metric. */
export function naiveEstimates(
  world: World,
  log: SimulatedLog,
  candidates: readonly Policy[],
  options: { bootstrap: number; seed: number },
): Prediction[] {
  const observed = log.searches.map((s) => observedValue(s.clicks));
  const tops = candidates.map((policy) => policy.map((list) => list.slice(0, DEPTH)));
  const point = values(tops, accumulate(world, log, observed, null));
  const rng = createRng(options.seed);
  const replicates: MetricValues[][] = [];
  const weights = new Float64Array(log.searches.length);
  for (let b = 0; b < options.bootstrap; b++) {
    for (let s = 0; s < weights.length; s++) weights[s] = rng.poisson(1);
    replicates.push(values(tops, accumulate(world, log, observed, weights)));
  }
  return point.map((diff, c) => {
    const out = {} as Prediction;
    for (const m of METRICS) {
      const reps = replicates.map((r) => r[c]![m]).sort((a, b) => a - b);
      out[m] = { estimate: diff[m], interval: [quantile(reps, 0.025), quantile(reps, 0.975)] };
    }
    return out;
  });
}

function accumulate(world: World, log: SimulatedLog, observed: MetricValues[], weights: Float64Array | null): Sums {
  const sums: Sums = {
    imp: new Float64Array(world.grade.length),
    clk: new Float64Array(world.grade.length),
    perQuery: new Float64Array(world.queries.length),
    baseline: { mrr: 0, clicks_per_search: 0, 'ctr@10': 0, abandonment_rate: 0 },
    total: 0,
  };
  for (let s = 0; s < log.searches.length; s++) {
    const w = weights === null ? 1 : weights[s]!;
    if (w === 0) continue;
    const rows = log.rows[s]!;
    const clicks = log.searches[s]!.clicks;
    for (let k = 0; k < rows.length; k++) {
      sums.imp[rows[k]!]! += w;
      if (clicks[k]) sums.clk[rows[k]!]! += w;
    }
    sums.perQuery[log.queryIndex[s]!]! += w;
    for (const m of METRICS) sums.baseline[m] += w * observed[s]![m];
    sums.total += w;
  }
  return sums;
}

/** Candidate − baseline per candidate, for one set of (possibly resampled) sums. */
function values(tops: readonly (readonly (readonly number[])[])[], sums: Sums): MetricValues[] {
  return tops.map((policy) => {
    const diff: MetricValues = { mrr: 0, clicks_per_search: 0, 'ctr@10': 0, abandonment_rate: 0 };
    policy.forEach((list, q) => {
      const w = sums.perQuery[q]! / sums.total;
      if (w === 0) return;
      const v = plugIn(list.map((r) => (sums.imp[r]! > 0 ? sums.clk[r]! / sums.imp[r]! : 0)));
      for (const m of METRICS) diff[m] += w * v[m];
    });
    for (const m of METRICS) diff[m] -= sums.baseline[m] / sums.total;
    return diff;
  });
}

/** Linear-interpolated quantile of sorted values. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
