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

const prefix = new Float64Array(257);
const KIND_CODE: Record<MetricKind, number> = { clicks: 0, ctr: 1, satisfied: 2, mrr: 3, abandonment: 4 };

/** The metrics as numeric codes, read in the scoring's inner loop. */
export interface MetricPlan {
  kinds: Int8Array;
  ks: Int32Array;
}

export function metricPlan(metrics: readonly ParsedMetric[]): MetricPlan {
  return { kinds: Int8Array.from(metrics, (m) => KIND_CODE[m.kind]), ks: Int32Array.from(metrics, (m) => m.k) };
}

/**
 * Writes the value of each metric for one list (its first `length` ranks) into out[offset + m]:
 * one pass for the prefix sums of c, then each metric reads what it needs.
 */
export function listMetrics(
  plan: MetricPlan,
  depth: number,
  length: number,
  c: Float64Array,
  s: Float64Array,
  f: Float64Array,
  out: Float64Array,
  offset: number,
): void {
  const top = length < depth ? length : depth;
  let satisfied = 0;
  let reciprocal = 0;
  let first = 0;
  for (let r = 0; r < length; r += 1) prefix[r + 1] = (prefix[r] as number) + (c[r] as number);
  for (let r = 0; r < top; r += 1) {
    satisfied += s[r] as number;
    reciprocal += (f[r] as number) / (r + 1);
    first += f[r] as number;
  }
  const { kinds, ks } = plan;
  for (let m = 0; m < kinds.length; m += 1) {
    const kind = kinds[m] as number;
    let value: number;
    if (kind === 0) value = prefix[top] as number;
    else if (kind === 1) {
      const k = ks[m] as number;
      value = (prefix[length < k ? length : k] as number) / k;
    } else if (kind === 2) value = satisfied;
    else if (kind === 3) value = reciprocal;
    else value = 1 - first;
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
