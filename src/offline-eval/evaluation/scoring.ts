import type { EncodedSearches } from '../log/encode.js';
import { independentFirstClicks, listMetrics, type ParsedMetric } from '../estimators/metrics.js';
import { modelListProbabilities, type PluginModel } from '../estimators/click-model-plugin.js';
import type { ListSet } from './lists.js';

/**
 * How one list is scored: its metric values from per-rank click probabilities. The per-pair
 * estimators (ips, snips) plug γ̂ into PBM, c_r = min(1, p_r γ̂(d_r)); dr adds p_r ρ̂(d_r) to the
 * click model's prediction; the direct method uses the click model alone, so its values do not
 * change between replicates and are computed once.
 */
export interface Scratch {
  c: Float64Array;
  s: Float64Array;
  f: Float64Array;
}

export function scratch(length: number): Scratch {
  return { c: new Float64Array(length), s: new Float64Array(length), f: new Float64Array(length) };
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** ips / snips: metric values of every list into out[l · M + m]. */
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
  for (let l = 0; l < lists.count; l += 1) {
    const start = lists.start[l] as number;
    const n = lists.length[l] as number;
    for (let r = 0; r < n; r += 1) {
      const p = lists.pair[start + r] as number;
      const e = propensity[r] as number;
      work.c[r] = p < 0 ? 0 : clamp01(e * (click[p] as number));
      work.s[r] = p < 0 ? 0 : clamp01(e * (sat[p] as number));
    }
    independentFirstClicks(work.c, n, work.f);
    listMetrics(metrics, depth, n, work.c, work.s, work.f, out, l * M);
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
  for (let l = 0; l < lists.count; l += 1) {
    const start = lists.start[l] as number;
    const n = lists.length[l] as number;
    for (let r = 0; r < n; r += 1) {
      const p = lists.pair[start + r] as number;
      work.c[r] = predictions.c[start + r] as number;
      work.f[r] = predictions.f[start + r] as number;
      work.s[r] = p < 0 ? 0 : (work.c[r] as number) * (share[p] as number);
    }
    listMetrics(metrics, depth, n, work.c, work.s, work.f, out, l * M);
  }
}

/** dr: c_r = m_r + p_r ρ̂(d_r), s_r = m_r ŝ(d_r) + p_r ρ̂_sat(d_r), clamped to [0, 1], clicks independent. */
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
      work.c[r] = clamp01(m + e * (residual[p] as number));
      work.s[r] = clamp01(m * (share[p] as number) + e * (satResidual[p] as number));
    }
    independentFirstClicks(work.c, n, work.f);
    listMetrics(metrics, depth, n, work.c, work.s, work.f, out, l * M);
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
