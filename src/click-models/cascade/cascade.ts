import type { FittedParts } from '../build-serialized-model.js';
import type { EncodedLog, LogCounts } from '../sessions/encode.js';
import { meanMarginalExamination } from './marginal-examination.js';
import type { ResolvedConfig } from '../types.js';

/**
 * Cascade model (CMWS §3.4): the user scans top-down and stops at the first click, so
 * P(C_r = 1) = α_r Π_{k<r}(1 − α_k). Maximum likelihood is closed form (§4.1): α = clicks
 * over examinations, where a session examined every rank down to its first click, or
 * all ranks when it has none. The model cannot explain a second click, so positions
 * after the first click are left out of the counts (as the book's estimator does with
 * multi-click sessions). Examination = implied marginal P(E_r = 1), averaged over
 * training sessions.
 */
export function fitCascade(log: EncodedLog, _counts: LogCounts, config: ResolvedConfig): FittedParts {
  const { depth, pairCount } = log;
  const num = new Float64Array(pairCount);
  const den = new Float64Array(pairCount);
  for (let s = 0; s < log.sessionCount; s += 1) {
    const base = s * depth;
    const n = log.lengths[s] as number;
    for (let r = 0; r < n; r += 1) {
      const p = log.pairs[base + r] as number;
      den[p] = (den[p] as number) + 1;
      if (log.clicks[base + r] === 1) {
        num[p] = (num[p] as number) + 1;
        break;
      }
    }
  }
  const alpha = ratio(num, den, config);
  return {
    attractiveness: alpha,
    satisfaction: null,
    relevance: alpha,
    examination: meanMarginalExamination(log, alpha, null, 1),
    params: { continuation: 1 },
    iterations: 0,
    converged: true,
  };
}

/**
 * Simplified DBN (CMWS §3.9): DBN with continuation λ = 1, so a session examined every
 * rank down to its last click (all ranks when there is none) and only the last click
 * can have satisfied. MLE (§4.1.3):
 *   α = clicks / ranks at or above the last click,  σ = last clicks / clicks.
 * Relevance = α·σ.
 */
export function fitSdbn(log: EncodedLog, _counts: LogCounts, config: ResolvedConfig): FittedParts {
  const { depth, pairCount } = log;
  const numA = new Float64Array(pairCount);
  const denA = new Float64Array(pairCount);
  const numS = new Float64Array(pairCount);
  const denS = new Float64Array(pairCount);
  for (let s = 0; s < log.sessionCount; s += 1) {
    const base = s * depth;
    const n = log.lengths[s] as number;
    let last = n - 1;
    while (last >= 0 && log.clicks[base + last] !== 1) last -= 1;
    const examinedTo = last >= 0 ? last : n - 1;
    for (let r = 0; r <= examinedTo; r += 1) {
      const p = log.pairs[base + r] as number;
      denA[p] = (denA[p] as number) + 1;
      if (log.clicks[base + r] === 1) {
        numA[p] = (numA[p] as number) + 1;
        denS[p] = (denS[p] as number) + 1;
        if (r === last) numS[p] = (numS[p] as number) + 1;
      }
    }
  }
  const alpha = ratio(numA, denA, config);
  const sigma = ratio(numS, denS, config);
  return {
    attractiveness: alpha,
    satisfaction: sigma,
    relevance: alpha.map((a, p) => a * (sigma[p] as number)),
    examination: meanMarginalExamination(log, alpha, sigma, 1),
    params: { continuation: 1 },
    iterations: 0,
    converged: true,
  };
}

function ratio(num: Float64Array, den: Float64Array, config: ResolvedConfig): Float64Array {
  const { positive, negative } = config.prior;
  return num.map((v, p) => (v + positive) / ((den[p] as number) + positive + negative));
}
