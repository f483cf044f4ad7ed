import type { EncodedSearches } from '../log/encode.js';
import { independentFirstClicks, listMetrics, metricPlan, type ParsedMetric } from '../estimators/metrics.js';
import { modelListProbabilities, type PluginModel } from '../estimators/click-model-plugin.js';
import type { ListSet } from './lists.js';

/**
 * How one list is scored: its metric values from per-rank click probabilities. The per-pair
 * estimators (ips, snips) plug γ̂ into PBM, c_r = p_r γ̂(d_r); dr adds p_r ρ̂(d_r) to the click
 * model's prediction; the direct method uses the click model alone, so its values do not change
 * between replicates and are computed once. Nothing is clamped to [0, 1]: every metric is then
 * multilinear in the estimates of distinct pairs, which are independent under PBM, so an unbiased
 * γ̂ gives an unbiased metric (a clamp would bias every noisy pair downward, badly so in the
 * bootstrap). One list's value can leave [0, 1]; only the average over searches is meaningful.
 */
export interface Scratch {
  c: Float64Array;
  s: Float64Array;
  f: Float64Array;
}

export function scratch(length: number): Scratch {
  return { c: new Float64Array(length), s: new Float64Array(length), f: new Float64Array(length) };
}

/**
 * ips / snips: metric values of every list into out[l · M + m]. One fused pass per list (this is
 * the bootstrap's inner loop): c_r = p_r γ̂, the prefix sums of c for ctr@k, and under PBM's
 * independence the first click f_r = c_r Π_{j<r} (1 − c_j) for mrr and abandonment.
 */
export function scorePlugIn(
  lists: ListSet,
  metrics: readonly ParsedMetric[],
  depth: number,
  propensity: Float64Array,
  click: Float64Array,
  sat: Float64Array,
  work: Scratch,
  out: Float64Array,
): void {
  const M = metrics.length;
  const { kinds, ks } = metricPlan(metrics);
  const prefix = work.c;
  const { start, length, pair } = lists;
  for (let l = 0; l < lists.count; l += 1) {
    const from = start[l] as number;
    const n = length[l] as number;
    const top = n < depth ? n : depth;
    let clicks = 0;
    let satisfied = 0;
    let reciprocal = 0;
    let first = 0;
    let none = 1;
    for (let r = 0; r < n; r += 1) {
      const p = pair[from + r] as number;
      const e = propensity[r] as number;
      const c = p < 0 ? 0 : e * (click[p] as number);
      clicks += c;
      prefix[r] = clicks;
      if (r < top) {
        if (p >= 0) satisfied += e * (sat[p] as number);
        const f = none * c;
        reciprocal += f / (r + 1);
        first += f;
        none *= 1 - c;
      }
    }
    for (let m = 0; m < M; m += 1) {
      const kind = kinds[m] as number;
      let value: number;
      if (kind === 0) value = top > 0 ? (prefix[top - 1] as number) : 0;
      else if (kind === 1) {
        const k = ks[m] as number;
        const upTo = n < k ? n : k;
        value = (upTo > 0 ? (prefix[upTo - 1] as number) : 0) / k;
      } else if (kind === 2) value = satisfied;
      else if (kind === 3) value = reciprocal;
      else value = 1 - first;
      out[l * M + m] = value;
    }
  }
}

/** The click model's per-rank predictions of every list (flattened like lists.pair), and its first clicks. */
export function modelPredictions(lists: ListSet, model: PluginModel): { c: Float64Array; f: Float64Array } {
  const c = new Float64Array(lists.pair.length);
  const f = new Float64Array(lists.pair.length);
  for (let l = 0; l < lists.count; l += 1) {
    const start = lists.start[l] as number;
    modelListProbabilities(model, lists.pair, start, lists.length[l] as number, c.subarray(start), f.subarray(start));
  }
  return { c, f };
}

/** dm-*: metric values from the model alone; satisfied clicks are c_r · ŝ(d_r). */
export function scoreDirect(
  lists: ListSet,
  predictions: { c: Float64Array; f: Float64Array },
  share: Float64Array,
  metrics: readonly ParsedMetric[],
  depth: number,
  work: Scratch,
  out: Float64Array,
): void {
  const M = metrics.length;
  const plan = metricPlan(metrics);
  for (let l = 0; l < lists.count; l += 1) {
    const start = lists.start[l] as number;
    const n = lists.length[l] as number;
    for (let r = 0; r < n; r += 1) {
      const p = lists.pair[start + r] as number;
      work.c[r] = predictions.c[start + r] as number;
      work.f[r] = predictions.f[start + r] as number;
      work.s[r] = p < 0 ? 0 : (work.c[r] as number) * (share[p] as number);
    }
    listMetrics(plan, depth, n, work.c, work.s, work.f, out, l * M);
  }
}

/** dr: c_r = m_r + p_r ρ̂(d_r), s_r = m_r ŝ(d_r) + p_r ρ̂_sat(d_r), clicks independent. */
export function scoreDoublyRobust(
  lists: ListSet,
  predictions: { c: Float64Array },
  share: Float64Array,
  metrics: readonly ParsedMetric[],
  depth: number,
  propensity: Float64Array,
  residual: Float64Array,
  satResidual: Float64Array,
  work: Scratch,
  out: Float64Array,
): void {
  const M = metrics.length;
  const plan = metricPlan(metrics);
  for (let l = 0; l < lists.count; l += 1) {
    const start = lists.start[l] as number;
    const n = lists.length[l] as number;
    for (let r = 0; r < n; r += 1) {
      const p = lists.pair[start + r] as number;
      if (p < 0) {
        work.c[r] = 0;
        work.s[r] = 0;
        continue;
      }
      const m = predictions.c[start + r] as number;
      const e = propensity[r] as number;
      work.c[r] = m + e * (residual[p] as number);
      work.s[r] = m * (share[p] as number) + e * (satResidual[p] as number);
    }
    independentFirstClicks(work.c, n, work.f);
    listMetrics(plan, depth, n, work.c, work.s, work.f, out, l * M);
  }
}

/** The click model's prediction for every logged impression, in pair order (dr's m_i). */
export function loggedPredictions(log: EncodedSearches, model: PluginModel): Float64Array {
  const items = log.itemPair.length;
  const byItem = new Float64Array(items);
  const f = new Float64Array(256);
  for (let s = 0; s < log.searches; s += 1) {
    const start = log.itemStart[s] as number;
    const n = (log.itemStart[s + 1] as number) - start;
    modelListProbabilities(model, log.itemPair, start, n, byItem.subarray(start), f);
  }
  const byImpression = new Float64Array(items);
  for (let i = 0; i < items; i += 1) byImpression[i] = byItem[log.impItem[i] as number] as number;
  return byImpression;
}
