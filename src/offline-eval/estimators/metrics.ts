import type { EvalMetric } from '../types.js';

/**
 * The offline metrics, matching the online catalogue (src/vocabulary/metrics.ts) so that a
 * predicted lift can be set beside an A/B lift. All are per search and computed from one list's
 * per-rank click probabilities c_r, satisfied-click probabilities s_r and first-click
 * probabilities f_r (the probability that the first click is at rank r).
 */
export type MetricKind = 'mrr' | 'clicks' | 'abandonment' | 'satisfied' | 'ctr';

export interface ParsedMetric {
  metric: EvalMetric;
  kind: MetricKind;
  /** Ranks the metric reads: `depth`, or k for ctr@k. */
  k: number;
}

export function parseMetric(metric: EvalMetric, depth: number): ParsedMetric {
  switch (metric) {
    case 'mrr':
      return { metric, kind: 'mrr', k: depth };
    case 'clicks_per_search':
      return { metric, kind: 'clicks', k: depth };
    case 'abandonment_rate':
      return { metric, kind: 'abandonment', k: depth };
    case 'satisfied_clicks':
      return { metric, kind: 'satisfied', k: depth };
  }
  const match = /^ctr@(\d+)$/.exec(metric);
  const k = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(k) || k < 1 || k > 255) throw new RangeError(`unknown metric: ${String(metric)}`);
  return { metric, kind: 'ctr', k };
}

/** The metric names as describeEvaluation writes them. */
export function metricLabel(metric: EvalMetric): string {
  switch (metric) {
    case 'mrr':
      return 'MRR';
    case 'clicks_per_search':
      return 'clicks per search';
    case 'abandonment_rate':
      return 'abandonment rate';
    case 'satisfied_clicks':
      return 'satisfied clicks';
  }
  return metric.replace(/^ctr@/, 'CTR@');
}

/**
 * First-click probabilities under independent clicks (PBM): f_r = c_r Π_{j<r} (1 − c_j). This is
 * exact for PBM and a plug-in approximation for any other click model (docs/offline-evaluation.md).
 */
export function independentFirstClicks(c: Float64Array, length: number, into: Float64Array): Float64Array {
  let none = 1;
  for (let r = 0; r < length; r += 1) {
    const p = c[r] as number;
    into[r] = none * p;
    none *= 1 - p;
  }
  return into;
}

/** Writes the value of each metric for one list (its first `length` ranks) into out[offset + m]. */
export function listMetrics(
  metrics: readonly ParsedMetric[],
  depth: number,
  length: number,
  c: Float64Array,
  s: Float64Array,
  f: Float64Array,
  out: Float64Array,
  offset: number,
): void {
  for (let m = 0; m < metrics.length; m += 1) {
    const { kind, k } = metrics[m] as ParsedMetric;
    const n = Math.min(length, k);
    let value = 0;
    switch (kind) {
      case 'clicks':
        for (let r = 0; r < n; r += 1) value += c[r] as number;
        break;
      case 'ctr':
        for (let r = 0; r < n; r += 1) value += c[r] as number;
        value /= k;
        break;
      case 'satisfied':
        for (let r = 0; r < n; r += 1) value += s[r] as number;
        break;
      case 'mrr':
        for (let r = 0; r < Math.min(length, depth); r += 1) value += (f[r] as number) / (r + 1);
        break;
      case 'abandonment':
        value = 1;
        for (let r = 0; r < Math.min(length, depth); r += 1) value -= f[r] as number;
        break;
    }
    out[offset + m] = value;
  }
}

/** The raw logged value of each metric for one search (clicks as logged). */
export function observedMetrics(
  metrics: readonly ParsedMetric[],
  depth: number,
  clicks: Uint8Array,
  sat: Uint8Array,
  start: number,
  end: number,
): number[] {
  let first = -1;
  for (let i = start; i < end && i - start < depth; i += 1) {
    if (clicks[i] === 1) {
      first = i - start;
      break;
    }
  }
  return metrics.map(({ kind, k }) => {
    let count = 0;
    switch (kind) {
      case 'mrr':
        return first >= 0 ? 1 / (first + 1) : 0;
      case 'abandonment':
        return first >= 0 ? 0 : 1;
      case 'clicks':
      case 'ctr':
        for (let i = start; i < end && i - start < k; i += 1) count += clicks[i] as number;
        return kind === 'ctr' ? count / k : count;
      case 'satisfied':
        for (let i = start; i < end && i - start < k; i += 1) count += sat[i] as number;
        return count;
    }
  });
}
