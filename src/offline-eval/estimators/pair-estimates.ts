import type { EncodedSearches } from '../log/encode.js';

/**
 * Per (query, result) estimates of γ(q, d), the probability of a click were d shown at position 1,
 * from one replicate's session weights w. With p_k the examination propensity of rank k relative
 * to rank 1 and the pair's logged impressions i (rank k_i, click c_i, satisfied click s_i):
 *
 *   ips    γ̂ = Σ w c / p_k ÷ Σ w                   (Joachims, Swaminathan & Schnabel 2017: unbiased)
 *   snips  γ̂ = Σ w c ÷ Σ w p_k                      (self-normalised; the item-position estimator of
 *                                                     Li et al. 2018 with the empirical logging policy)
 *   dr     ρ̂ = Σ w (c − m_i) / p_k ÷ Σ w            (the IPS estimate of the click model's residual,
 *                                                     m_i its predicted click for impression i; Oosterhuis 2023)
 *
 * and the same with satisfied clicks for γ̂_sat (dr: s − m_i·ŝ, ŝ the pair's satisfied share of
 * clicks). Each is a ratio Σ w·x_i ÷ Σ w·y_i of per-impression values fixed before the bootstrap
 * starts, so a replicate is one branch-free sequential sweep over the impressions grouped by pair
 * whose only random access is the session weight.
 */
export type PairEstimator = 'ips' | 'snips' | 'dr';

export interface PairEstimateInputs {
  log: EncodedSearches;
  /** The pairs any evaluated list holds. */
  relevant: Int32Array;
  /** False when no metric reads satisfied clicks: the sweep then skips them. */
  withSatisfied: boolean;
  /**
   * ips, snips: per impression (pair order) one code, rank | click << 8 | satisfied click << 9, and
   * per code the click and satisfied numerators and the denominator. Two bytes an impression
   * instead of three doubles: the sweep is bound by memory, not arithmetic.
   */
  code: Uint16Array | null;
  table: { click: Float64Array; satisfied: Float64Array; denominator: Float64Array };
  /** dr: per impression the residual numerators (the denominator is 1). */
  click: Float64Array;
  satisfied: Float64Array;
  estimator: PairEstimator;
  /** dr: the click model's prediction per impression (pair order) and ŝ per pair. */
  dr?: { predicted: Float64Array; satisfiedShare: Float64Array };
}

/**
 * The per-impression values of `estimator`. `propensity` is per 0-based rank; dr needs the click
 * model's prediction per impression (pair order) and ŝ per pair.
 */
export function pairEstimateInputs(
  log: EncodedSearches,
  estimator: PairEstimator,
  relevant: Int32Array,
  propensity: Float64Array,
  dr?: { predicted: Float64Array; satisfiedShare: Float64Array },
  withSatisfied = true,
): PairEstimateInputs {
  const n = log.impRank.length;
  const table = { click: new Float64Array(1024), satisfied: new Float64Array(1024), denominator: new Float64Array(1024) };
  let code: Uint16Array | null = null;
  if (estimator !== 'dr') {
    code = new Uint16Array(n);
    for (let i = 0; i < n; i += 1)
      code[i] = (log.impRank[i] as number) | ((log.impClick[i] as number) << 8) | ((log.impSat[i] as number) << 9);
  }
  const size = estimator === 'dr' ? n : 0;
  const inputs: PairEstimateInputs = {
    log,
    relevant,
    withSatisfied,
    code,
    table,
    click: new Float64Array(size),
    satisfied: new Float64Array(size),
    estimator,
    ...(dr ? { dr } : {}),
  };
  setPropensities(inputs, propensity);
  return inputs;
}

/**
 * (Re)computes the propensity-dependent values: the 1024-entry tables of ips and snips, or dr's
 * per-impression residuals. Called once per replicate when the propensities are re-harvested in
 * each replicate (evaluateCandidate's `propensities: { harvest }`).
 */
export function setPropensities(inputs: PairEstimateInputs, propensity: Float64Array): void {
  const { log, table, estimator, dr } = inputs;
  if (estimator !== 'dr') {
    for (let code = 0; code < 1024; code += 1) {
      const e = propensity[code & 255] as number;
      const c = (code >> 8) & 1;
      const s = c & (code >> 9);
      table.click[code] = estimator === 'ips' ? c / e : c;
      table.satisfied[code] = estimator === 'ips' ? s / e : s;
      table.denominator[code] = estimator === 'ips' ? 1 : e;
    }
    return;
  }
  const { click, satisfied } = inputs;
  for (let p = 0; p < log.pairDoc.length; p += 1) {
    const share = dr?.satisfiedShare[p] ?? 0;
    for (let i = log.pairStart[p] as number; i < (log.pairStart[p + 1] as number); i += 1) {
      const e = propensity[log.impRank[i] as number] as number;
      const c = log.impClick[i] as number;
      const m = dr?.predicted[i] ?? 0;
      click[i] = (c - m) / e;
      satisfied[i] = ((c & (log.impSat[i] as number)) - m * share) / e;
    }
  }
}

/**
 * One replicate's estimates into click/sat. A pair the replicate left without any weight (all its
 * sessions drew 0) keeps its full-sample estimate from `fallback` when given: it has evidence, the
 * replicate just did not draw it, and scoring it 0 would mistake resampling for lost coverage
 * (with one impression that happens in e^-1 = 37 % of replicates and drags every interval down).
 */
export function estimatePairs(
  inputs: PairEstimateInputs,
  weights: Uint8Array,
  click: Float64Array,
  sat: Float64Array,
  fallback?: { click: Float64Array; sat: Float64Array },
): void {
  const { relevant, withSatisfied, code } = inputs;
  const { pairStart, impSession } = inputs.log;
  const X = inputs.table.click;
  const Y = inputs.table.satisfied;
  const D = inputs.table.denominator;
  const x = inputs.click;
  const y = inputs.satisfied;
  for (let j = 0; j < relevant.length; j += 1) {
    const p = relevant[j] as number;
    const end = pairStart[p + 1] as number;
    let d = 0;
    let c = 0;
    let s = 0;
    if (code !== null && !withSatisfied) {
      // The common case: ips or snips without satisfied_clicks.
      for (let i = pairStart[p] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        const k = code[i] as number;
        d += w * (D[k] as number);
        c += w * (X[k] as number);
      }
    } else if (code !== null) {
      for (let i = pairStart[p] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        const k = code[i] as number;
        d += w * (D[k] as number);
        c += w * (X[k] as number);
        s += w * (Y[k] as number);
      }
    } else {
      for (let i = pairStart[p] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        d += w;
        c += w * (x[i] as number);
        s += w * (y[i] as number);
      }
    }
    if (d > 0) {
      click[p] = c / d;
      sat[p] = s / d;
    } else {
      click[p] = fallback?.click[p] ?? 0;
      sat[p] = fallback?.sat[p] ?? 0;
    }
  }
}

/** ŝ per pair: satisfied clicks over clicks in the whole log (0 for a never-clicked pair). */
export function satisfiedShares(log: EncodedSearches): Float64Array {
  const pairs = log.pairDoc.length;
  const share = new Float64Array(pairs);
  for (let p = 0; p < pairs; p += 1) {
    let clicks = 0;
    let satisfied = 0;
    for (let i = log.pairStart[p] as number; i < (log.pairStart[p + 1] as number); i += 1) {
      clicks += log.impClick[i] as number;
      satisfied += (log.impClick[i] as number) & (log.impSat[i] as number);
    }
    share[p] = clicks > 0 ? satisfied / clicks : 0;
  }
  return share;
}
