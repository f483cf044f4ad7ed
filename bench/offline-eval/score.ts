/**
 * How good the predictions are, against the exact truth: bias and RMSE of the predicted lift
 * (candidate − logging policy), 95 % interval coverage, Kendall τ-b between predicted and true lifts,
 * and the share of candidate pairs whose true MRR differs by at least 1 % that the prediction orders
 * correctly.
 */
import type { Interval } from './naive.js';
import type { Metric, MetricValues } from './users.js';

export interface Scored {
  /** Exact lift (candidate − logging policy) per metric. */
  trueLift: MetricValues;
  /** Exact candidate value (for the 1 % MRR pairs). */
  trueValue: MetricValues;
  /** null: the estimator gave no estimate (coverage too low). */
  predicted: Record<Metric, Interval> | null;
}

export interface MetricScore {
  metric: Metric;
  estimated: number;
  candidates: number;
  bias: number;
  rmse: number;
  coverage: number;
  tau: number;
}

export function scoreMetric(items: readonly Scored[], metric: Metric): MetricScore {
  const withEstimate = items.filter((i) => i.predicted !== null);
  const err = withEstimate.map((i) => i.predicted![metric].estimate - i.trueLift[metric]);
  const inside = withEstimate.filter((i) => {
    const [lo, hi] = i.predicted![metric].interval;
    return lo <= i.trueLift[metric] && i.trueLift[metric] <= hi;
  }).length;
  return {
    metric,
    estimated: withEstimate.length,
    candidates: items.length,
    bias: mean(err),
    rmse: Math.sqrt(mean(err.map((e) => e * e))),
    coverage: withEstimate.length ? inside / withEstimate.length : Number.NaN,
    tau: kendallTauB(
      withEstimate.map((i) => i.predicted![metric].estimate),
      withEstimate.map((i) => i.trueLift[metric]),
    ),
  };
}

/** Pairs of estimated candidates whose true MRR differs by ≥ `relative` of the larger: share ordered correctly. */
export function pairOrdering(items: readonly Scored[], relative = 0.01): { pairs: number; correct: number; share: number } {
  const est = items.filter((i) => i.predicted !== null);
  let pairs = 0;
  let correct = 0;
  for (let a = 0; a < est.length; a++) {
    for (let b = a + 1; b < est.length; b++) {
      const ta = est[a]!.trueValue.mrr;
      const tb = est[b]!.trueValue.mrr;
      if (Math.abs(ta - tb) < relative * Math.max(ta, tb)) continue;
      pairs++;
      const pa = est[a]!.predicted!.mrr.estimate;
      const pb = est[b]!.predicted!.mrr.estimate;
      if (Math.sign(pa - pb) === Math.sign(ta - tb)) correct++;
    }
  }
  return { pairs, correct, share: pairs ? correct / pairs : Number.NaN };
}

/** Kendall τ-b (ties in either variable handled), O(n²): the candidate lists are small. */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return denom > 0 ? (concordant - discordant) / denom : Number.NaN;
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}
