import type { EncodedSearches } from '../log/encode.js';

/**
 * Per (query, result) estimates of γ(q, d), the probability of a click were d shown at position 1,
 * from one replicate's session weights w. With p_k the examination propensity of rank k relative
 * to rank 1 and the pair's logged impressions i (rank k_i, click c_i, satisfied click s_i):
 *
 *   ips    γ̂ = Σ w c / p_k ÷ Σ w                   (Joachims, Swaminathan & Schnabel 2017: unbiased)
 *   snips  γ̂ = Σ w c ÷ Σ w p_k                      (self-normalised; Li, Kim & Zitouni 2018's item-
 *                                                     position estimator with the empirical logging policy)
 *   dr     ρ̂ = Σ w (c − m_i) / p_k ÷ Σ w            (the IPS estimate of the click model's residual,
 *                                                     m_i its predicted click for impression i; Oosterhuis 2023)
 *
 * and the same with satisfied clicks for γ̂_sat (dr: s − m_i·ŝ, ŝ the pair's satisfied share of
 * clicks). One sequential sweep over the impressions grouped by pair; the only random access is
 * the session weight.
 */
export type PairEstimator = 'ips' | 'snips' | 'dr';

export interface PairEstimateInputs {
  log: EncodedSearches;
  estimator: PairEstimator;
  /** The pairs any evaluated list holds. */
  relevant: Int32Array;
  /** Propensity per 0-based rank, and its inverse. */
  propensity: Float64Array;
  inverse: Float64Array;
  /** dr only: the click model's click probability per impression (in pair order), and ŝ per pair. */
  predicted?: Float64Array;
  satisfiedShare?: Float64Array;
}

export function estimatePairs(inputs: PairEstimateInputs, weights: Uint8Array, click: Float64Array, sat: Float64Array): void {
  const { log, relevant, propensity, inverse } = inputs;
  const { pairStart, impSession, impRank, impClick, impSat } = log;
  if (inputs.estimator === 'ips') {
    for (let j = 0; j < relevant.length; j += 1) {
      const p = relevant[j] as number;
      let n = 0;
      let c = 0;
      let s = 0;
      for (let i = pairStart[p] as number, end = pairStart[p + 1] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        if (w === 0) continue;
        n += w;
        if (impClick[i] === 1) {
          const x = w * (inverse[impRank[i] as number] as number);
          c += x;
          if (impSat[i] === 1) s += x;
        }
      }
      click[p] = n > 0 ? c / n : 0;
      sat[p] = n > 0 ? s / n : 0;
    }
  } else if (inputs.estimator === 'snips') {
    for (let j = 0; j < relevant.length; j += 1) {
      const p = relevant[j] as number;
      let e = 0;
      let c = 0;
      let s = 0;
      for (let i = pairStart[p] as number, end = pairStart[p + 1] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        if (w === 0) continue;
        e += w * (propensity[impRank[i] as number] as number);
        if (impClick[i] === 1) {
          c += w;
          if (impSat[i] === 1) s += w;
        }
      }
      click[p] = e > 0 ? c / e : 0;
      sat[p] = e > 0 ? s / e : 0;
    }
  } else {
    const predicted = inputs.predicted as Float64Array;
    const share = inputs.satisfiedShare as Float64Array;
    for (let j = 0; j < relevant.length; j += 1) {
      const p = relevant[j] as number;
      const sp = share[p] as number;
      let n = 0;
      let c = 0;
      let s = 0;
      for (let i = pairStart[p] as number, end = pairStart[p + 1] as number; i < end; i += 1) {
        const w = weights[impSession[i] as number] as number;
        if (w === 0) continue;
        n += w;
        const x = w * (inverse[impRank[i] as number] as number);
        const m = predicted[i] as number;
        c += x * ((impClick[i] as number) - m);
        s += x * ((impSat[i] as number) - m * sp);
      }
      click[p] = n > 0 ? c / n : 0;
      sat[p] = n > 0 ? s / n : 0;
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
