import type { ClickModel, SearchSession } from '../types.js';

export interface EvaluationOptions {
  /** Probabilities are clamped to [epsilon, 1 − epsilon] so an impossible event costs a
   *  large but finite penalty instead of −∞ (e.g. a second click under cascade). */
  readonly epsilon?: number;
}

export interface EvaluationResult {
  readonly sessions: number;
  /** Mean over sessions of ln P(C_1..C_n) = Σ_r ln P(C_r | C_<r) (CMWS §5.1). Null if no sessions. */
  readonly logLikelihood: number | null;
  /** Mean of `perplexityByRank` over ranks with data (CMWS §5.2). */
  readonly perplexity: number | null;
  /** p_r = 2^(−1/N_r Σ_s log2 P(C_r = c_r)), with full (marginal) click probabilities. */
  readonly perplexityByRank: readonly (number | null)[];
  /** Same with P(C_r = c_r | C_<r) — "conditional perplexity" (CMWS §5.2.1). */
  readonly conditionalPerplexity: number | null;
  readonly conditionalPerplexityByRank: readonly (number | null)[];
}

const DEFAULT_EPSILON = 1e-6;

function mean(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v !== null) {
      sum += v;
      n += 1;
    }
  }
  return n > 0 ? sum / n : null;
}

/**
 * Held-out evaluation. Pairs the model never saw get its population defaults, so every
 * session scores (the smoothing the perplexity definition needs).
 */
export function evaluate(model: ClickModel, heldOut: readonly SearchSession[], options: EvaluationOptions = {}): EvaluationResult {
  const epsilon = options.epsilon ?? DEFAULT_EPSILON;
  const depth = model.maxDepth;
  const clamp = (p: number): number => Math.min(1 - epsilon, Math.max(epsilon, p));
  const log2Marginal = new Float64Array(depth);
  const log2Conditional = new Float64Array(depth);
  const observed = new Float64Array(depth);
  let totalLogLikelihood = 0;
  let sessions = 0;

  for (const session of heldOut) {
    const { conditional, marginal } = model.clickProbabilities(session);
    if (conditional.length === 0) continue;
    sessions += 1;
    for (let r = 0; r < conditional.length; r += 1) {
      const clicked = session.clicks[r] === true;
      const pc = clamp(conditional[r] as number);
      const pm = clamp(marginal[r] as number);
      const condProb = clicked ? pc : 1 - pc;
      const margProb = clicked ? pm : 1 - pm;
      totalLogLikelihood += Math.log(condProb);
      log2Conditional[r] = (log2Conditional[r] as number) + Math.log2(condProb);
      log2Marginal[r] = (log2Marginal[r] as number) + Math.log2(margProb);
      observed[r] = (observed[r] as number) + 1;
    }
  }

  const byRank = (sums: Float64Array): (number | null)[] =>
    Array.from(sums, (sum, r) => {
      const n = observed[r] as number;
      return n > 0 ? 2 ** (-sum / n) : null;
    });
  const perplexityByRank = byRank(log2Marginal);
  const conditionalPerplexityByRank = byRank(log2Conditional);
  return {
    sessions,
    logLikelihood: sessions > 0 ? totalLogLikelihood / sessions : null,
    perplexity: mean(perplexityByRank),
    perplexityByRank,
    conditionalPerplexity: mean(conditionalPerplexityByRank),
    conditionalPerplexityByRank,
  };
}

export interface TimeSplit {
  readonly train: SearchSession[];
  readonly heldOut: SearchSession[];
}

/**
 * Held-out = the latest `heldOutFraction` of sessions by timestamp, so a model is
 * judged on the future it will face, not on sessions interleaved with its training
 * data. Sessions without a timestamp keep their input position relative to each other
 * and sort before timestamped ones; ties keep input order.
 */
export function splitByTime(sessions: readonly SearchSession[], heldOutFraction: number): TimeSplit {
  if (!(heldOutFraction >= 0 && heldOutFraction <= 1)) {
    throw new RangeError(`heldOutFraction must be in [0, 1], got ${heldOutFraction}`);
  }
  const order = sessions.map((_, i) => i);
  const time = (i: number): number => sessions[i]?.timestamp ?? Number.NEGATIVE_INFINITY;
  order.sort((a, b) => time(a) - time(b) || a - b);
  const heldOutCount = Math.round(sessions.length * heldOutFraction);
  const cut = sessions.length - heldOutCount;
  const pick = (i: number): SearchSession => sessions[i] as SearchSession;
  return { train: order.slice(0, cut).map(pick), heldOut: order.slice(cut).map(pick) };
}
