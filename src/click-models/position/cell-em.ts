import type { CellTable } from './cells.js';
import type { ResolvedConfig } from '../types.js';

export interface CellEmResult {
  readonly alpha: Float64Array;
  readonly gamma: Float64Array;
  /** Impressions per examination code, for summaries. */
  readonly gammaImpressions: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * EM for models where P(C = 1) = α_qd · γ_g and the examination parameter γ is selected
 * by a code known from the observed clicks: PBM (g = rank, CMWS §3.3) and UBM (g = rank
 * and rank of the previous click, §3.5). E-step posteriors for a non-clicked position
 * (§4.2.1, derived from Bayes' rule on C = A ∧ E):
 *   P(A = 1 | C = 0) = α(1 − γ) / (1 − αγ),   P(E = 1 | C = 0) = γ(1 − α) / (1 − αγ),
 * and both are 1 for a clicked position. M-step (§4.2.2): each parameter becomes the
 * mean posterior over the positions it governs, here with Beta pseudo-counts added.
 *
 * α·γ is identified but α and γ separately only up to a factor (α·k, γ/k). We fix the
 * scale after every M-step so that max_g γ_g = 1 — "the most-examined position is
 * always examined", the convention cascade models make with E_1 = 1. Rescaling leaves
 * the likelihood unchanged.
 *
 * Only pairs with at least `examinationMinImpressions` impressions update γ (all pairs
 * get α). With a few impressions per pair, per-pair α overfits its clicks and the joint
 * MAP estimate of γ is biased towards a flat curve (the incidental-parameter problem):
 * on a simulated Zipf log where 28% of impressions came from pairs seen < 20 times,
 * γ_2 came out 0.09 too high without this threshold. If no pair reaches the threshold
 * all pairs are used.
 */
export function cellEm(cells: CellTable, pairCount: number, codeCount: number, config: ResolvedConfig): CellEmResult {
  const { pair, code, impressions, clicks, count } = cells;
  const prior = config.prior;
  const ePrior = config.examinationPrior;

  const gammaImpressions = new Float64Array(codeCount);
  const gammaClicks = new Float64Array(codeCount);
  const pairImpressions = new Float64Array(pairCount);
  const pairClicks = new Float64Array(pairCount);
  for (let i = 0; i < count; i += 1) {
    const g = code[i] as number;
    const p = pair[i] as number;
    gammaImpressions[g] = (gammaImpressions[g] as number) + (impressions[i] as number);
    gammaClicks[g] = (gammaClicks[g] as number) + (clicks[i] as number);
    pairImpressions[p] = (pairImpressions[p] as number) + (impressions[i] as number);
    pairClicks[p] = (pairClicks[p] as number) + (clicks[i] as number);
  }

  // Start from the data: γ ∝ CTR of the code, α = clicks / expected examinations. With
  // shuffled rankings this is already close to the optimum, so EM needs few iterations.
  const gamma = new Float64Array(codeCount);
  let maxCtr = 0;
  for (let g = 0; g < codeCount; g += 1) {
    const n = gammaImpressions[g] as number;
    const ctr = n > 0 ? (gammaClicks[g] as number) / n : 0;
    gamma[g] = ctr;
    maxCtr = Math.max(maxCtr, ctr);
  }
  for (let g = 0; g < codeCount; g += 1) {
    gamma[g] = maxCtr > 0 && (gammaImpressions[g] as number) > 0 ? Math.max(0.01, (gamma[g] as number) / maxCtr) : 0.5;
  }
  const expectedExams = new Float64Array(pairCount);
  for (let i = 0; i < count; i += 1) {
    const p = pair[i] as number;
    expectedExams[p] = (expectedExams[p] as number) + (impressions[i] as number) * (gamma[code[i] as number] as number);
  }
  const alpha = new Float64Array(pairCount);
  for (let p = 0; p < pairCount; p += 1) {
    const a = ((pairClicks[p] as number) + prior.positive) / ((expectedExams[p] as number) + prior.positive + prior.negative);
    alpha[p] = Math.min(0.99, Math.max(0.01, a));
  }

  let informs = pairImpressions.map((n) => (n >= config.examinationMinImpressions ? 1 : 0));
  if (!informs.some((v) => v === 1)) informs = informs.fill(1);
  const gammaTrials = new Float64Array(codeCount);
  for (let i = 0; i < count; i += 1) {
    const g = code[i] as number;
    if (informs[pair[i] as number] === 1) gammaTrials[g] = (gammaTrials[g] as number) + (impressions[i] as number);
  }

  const alphaNum = new Float64Array(pairCount);
  const gammaNum = new Float64Array(codeCount);
  let iterations = 0;
  let converged = false;
  while (iterations < config.iterations && !converged) {
    iterations += 1;
    alphaNum.fill(0);
    gammaNum.fill(0);
    for (let i = 0; i < count; i += 1) {
      const p = pair[i] as number;
      const g = code[i] as number;
      const a = alpha[p] as number;
      const e = gamma[g] as number;
      const k = clicks[i] as number;
      const skips = (impressions[i] as number) - k;
      const w = skips / (1 - a * e);
      alphaNum[p] = (alphaNum[p] as number) + k + w * a * (1 - e);
      if (informs[p] === 1) gammaNum[g] = (gammaNum[g] as number) + k + w * e * (1 - a);
    }

    let scale = 0;
    for (let g = 0; g < codeCount; g += 1) {
      const n = gammaTrials[g] as number;
      const next = ((gammaNum[g] as number) + ePrior.positive) / (n + ePrior.positive + ePrior.negative);
      gammaNum[g] = next;
      if (n > 0) scale = Math.max(scale, next);
    }
    if (scale <= 0) scale = 1;

    let delta = 0;
    for (let g = 0; g < codeCount; g += 1) {
      const next = Math.min(1, (gammaNum[g] as number) / scale);
      delta = Math.max(delta, Math.abs(next - (gamma[g] as number)));
      gamma[g] = next;
    }
    for (let p = 0; p < pairCount; p += 1) {
      const n = pairImpressions[p] as number;
      const next = scale * (((alphaNum[p] as number) + prior.positive) / (n + prior.positive + prior.negative));
      delta = Math.max(delta, Math.abs(next - (alpha[p] as number)));
      alpha[p] = next;
    }
    converged = delta < config.tolerance;
  }

  return { alpha, gamma, gammaImpressions, iterations, converged };
}
