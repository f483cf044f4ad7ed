import type { FittedParts } from '../build-serialized-model.js';
import { smoothed } from '../fit-config.js';
import type { EncodedLog, LogCounts } from '../sessions/encode.js';
import type { ResolvedConfig } from '../types.js';

function rankCtr(counts: LogCounts): Float64Array {
  const depth = counts.rankImpressions.length;
  const ctr = new Float64Array(depth);
  for (let r = 0; r < depth; r += 1) {
    const n = counts.rankImpressions[r] as number;
    ctr[r] = n > 0 ? (counts.rankClicks[r] as number) / n : 0;
  }
  return ctr;
}

/** RCTR normalised so its largest value is 1: the only "examination" a CTR model has. */
function normalisedByMax(values: Float64Array): Float64Array {
  let max = 0;
  for (const v of values) max = Math.max(max, v);
  return max > 0 ? values.map((v) => v / max) : new Float64Array(values.length);
}

/**
 * Document-based CTR (DCTR, CMWS §3.2.2): P(C = 1) = ρ_qd, estimated by MLE (§4.1.1)
 * with Beta pseudo-counts. Rank-based CTR (RCTR, §3.2.1) is kept as `rankCtr`.
 */
export function fitCtr(_log: EncodedLog, counts: LogCounts, config: ResolvedConfig): FittedParts {
  const n = counts.pairImpressions.length;
  const ctr = new Float64Array(n);
  for (let p = 0; p < n; p += 1) {
    ctr[p] = smoothed(counts.pairClicks[p] as number, counts.pairImpressions[p] as number, config.prior);
  }
  const perRank = rankCtr(counts);
  return {
    attractiveness: ctr,
    satisfaction: null,
    relevance: ctr,
    examination: normalisedByMax(perRank),
    params: { rankCtr: Array.from(perRank) },
    iterations: 0,
    converged: true,
  };
}

/**
 * Clicks over expected clicks. Expected clicks use the per-rank CTR over the whole log.
 * With `best-rank` (default) this follows OpenSearch Search Relevance's CoecClickModel:
 * expected = impressions × rankCtr[best rank the pair was seen at], and a pair with no
 * expected clicks is rated 0. `relevance` is that raw COEC, so judgments match
 * OpenSearch's. For predicting clicks the ratio is shrunk towards 1 with the prior's
 * total pseudo-count (a pair never seen behaves like an average result):
 * P(C_r = 1) = min(1, (clicks + k) / (expected + k) × rankCtr_r).
 */
export function fitCoec(log: EncodedLog, counts: LogCounts, config: ResolvedConfig): FittedParts {
  const n = log.pairCount;
  const perRank = rankCtr(counts);
  const bestRank = new Int32Array(n).fill(log.depth);
  const perImpressionExpected = new Float64Array(n);
  for (let s = 0; s < log.sessionCount; s += 1) {
    const base = s * log.depth;
    const length = log.lengths[s] as number;
    for (let r = 0; r < length; r += 1) {
      const p = log.pairs[base + r] as number;
      if (r < (bestRank[p] as number)) bestRank[p] = r;
      perImpressionExpected[p] = (perImpressionExpected[p] as number) + (perRank[r] as number);
    }
  }
  const k = config.prior.positive + config.prior.negative;
  const coec = new Float64Array(n);
  const multiplier = new Float64Array(n);
  for (let p = 0; p < n; p += 1) {
    const clicks = counts.pairClicks[p] as number;
    const expected =
      config.coecExpectation === 'best-rank'
        ? (counts.pairImpressions[p] as number) * (perRank[bestRank[p] as number] ?? 0)
        : (perImpressionExpected[p] as number);
    coec[p] = expected > 0 ? clicks / expected : 0;
    multiplier[p] = (clicks + k) / (expected + k);
  }
  return {
    attractiveness: multiplier,
    satisfaction: null,
    relevance: coec,
    examination: normalisedByMax(perRank),
    params: { rankCtr: Array.from(perRank) },
    iterations: 0,
    converged: true,
  };
}
