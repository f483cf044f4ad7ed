import type { FittedParts } from '../build-serialized-model.js';
import type { EncodedLog, LogCounts } from '../sessions/encode.js';
import { fitSdbn } from './cascade.js';
import { meanMarginalExamination } from './marginal-examination.js';
import type { ResolvedConfig } from '../types.js';

/**
 * Dynamic Bayesian network model (CMWS §3.8, after Chapelle & Zhang 2009): examined
 * results are clicked with probability α_qd; a click satisfies with probability σ_qd;
 * an unsatisfied user continues with probability λ. Fitted by exact EM (§4.2.4).
 *
 * Given the clicks of a session with last click l, every rank ≤ l was examined and
 * every click before l was unsatisfying; only S_l and the examination of ranks after l
 * are hidden. With Z_r = P(no click at r..n | E_r = 1), computed backwards as
 *   Z_{n+1} = 1,  Z_r = (1 − α_r)((1 − λ) + λ Z_{r+1}),
 * and e = P(E_{l+1} = 1 | clicks up to l) = λ(1 − σ_l) (1 when there is no click):
 *   P(S_l = 1 | C) = σ_l / D,  D = (1 − e) + e·Z_{l+1},
 *   P(E_r = 1 | C) = e · Π_{l<k<r} (1 − α_k)λ · Z_r / D   for r > l,
 * M-step for α: clicks over expected examinations, α = Σ C / Σ P(E = 1 | C). Its fixed
 * point is the same as that of the textbook update (expected attractive impressions over
 * all impressions, where every unexamined impression is a trial with posterior α), but the
 * textbook update moves α by only the examined share of the way each iteration, so it
 * converges slowly on pairs often shown below where users stop (on the seeded simulations
 * of bench/click-models/convergence.ts: 39–122 iterations before, 26–87 with this update).
 * The Beta(prior) pseudo-counts are added on the examination scale on purpose: a pair
 * that was rarely examined (shown low, few impressions) is shrunk toward the prior mean
 * 1/2 in proportion to how little it was seen, not to how often it was listed.
 * λ's trials are the transitions from an examined, unsatisfied rank; their expected
 * counts follow from the same quantities. Initialised from the closed-form SDBN.
 */
export function fitDbn(log: EncodedLog, counts: LogCounts, config: ResolvedConfig): FittedParts {
  const { depth, pairCount } = log;
  const prior = config.prior;
  const ePrior = config.examinationPrior;
  const start = fitSdbn(log, counts, config);
  const alpha = Float64Array.from(start.attractiveness);
  const sigma = Float64Array.from(start.satisfaction ?? new Float64Array(pairCount).fill(0.5));
  let lambda = 0.9;

  const numA = new Float64Array(pairCount);
  const denA = new Float64Array(pairCount);
  const numS = new Float64Array(pairCount);
  const denS = new Float64Array(pairCount);
  const z = new Float64Array(depth + 1);
  let iterations = 0;
  let converged = false;

  while (iterations < config.iterations && !converged) {
    iterations += 1;
    numA.fill(0);
    denA.fill(0);
    numS.fill(0);
    denS.fill(0);
    let lamNum = 0;
    let lamDen = 0;

    for (let s = 0; s < log.sessionCount; s += 1) {
      const base = s * depth;
      const n = log.lengths[s] as number;
      let last = -1;
      for (let r = 0; r < n; r += 1) if (log.clicks[base + r] === 1) last = r;

      z[n] = 1;
      for (let r = n - 1; r > last; r -= 1) {
        z[r] = (1 - (alpha[log.pairs[base + r] as number] as number)) * (1 - lambda + lambda * (z[r + 1] as number));
      }

      for (let r = 0; r <= last; r += 1) {
        const p = log.pairs[base + r] as number;
        denA[p] = (denA[p] as number) + 1;
        if (log.clicks[base + r] === 1) {
          numA[p] = (numA[p] as number) + 1;
          denS[p] = (denS[p] as number) + 1;
        }
        if (r < last) {
          lamNum += 1;
          lamDen += 1;
        }
      }

      let e = 1;
      if (last >= 0) e = lambda * (1 - (sigma[log.pairs[base + last] as number] as number));
      const norm = 1 - e + e * (z[last + 1] as number);
      let prefix = e / norm; // ε_r = prefix · Z_r for r > last
      if (last >= 0) {
        const p = log.pairs[base + last] as number;
        const satisfied = (sigma[p] as number) / norm;
        numS[p] = (numS[p] as number) + satisfied;
        if (last < n - 1) {
          lamDen += 1 - satisfied;
          lamNum += prefix * (z[last + 1] as number);
        }
      }
      for (let r = last + 1; r < n; r += 1) {
        const p = log.pairs[base + r] as number;
        const a = alpha[p] as number;
        const examined = prefix * (z[r] as number);
        denA[p] = (denA[p] as number) + examined;
        prefix *= (1 - a) * lambda;
        if (r < n - 1) {
          lamDen += examined;
          lamNum += prefix * (z[r + 1] as number);
        }
      }
    }

    let delta = 0;
    for (let p = 0; p < pairCount; p += 1) {
      const a = ((numA[p] as number) + prior.positive) / ((denA[p] as number) + prior.positive + prior.negative);
      const sat = ((numS[p] as number) + prior.positive) / ((denS[p] as number) + prior.positive + prior.negative);
      delta = Math.max(delta, Math.abs(a - (alpha[p] as number)), Math.abs(sat - (sigma[p] as number)));
      alpha[p] = a;
      sigma[p] = sat;
    }
    const nextLambda = (lamNum + ePrior.positive) / (lamDen + ePrior.positive + ePrior.negative);
    delta = Math.max(delta, Math.abs(nextLambda - lambda));
    lambda = nextLambda;
    converged = delta < config.tolerance;
  }

  return {
    attractiveness: alpha,
    satisfaction: sigma,
    relevance: alpha.map((a, p) => a * (sigma[p] as number)),
    examination: meanMarginalExamination(log, alpha, sigma, lambda),
    params: { continuation: lambda },
    iterations,
    converged,
  };
}
