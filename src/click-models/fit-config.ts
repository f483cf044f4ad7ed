import { DEFAULT_MAX_DEPTH, assertDepth } from './sessions/encode.js';
import { CLICK_MODEL_ALGORITHMS, type ClickModelConfig, type PseudoCounts, type ResolvedConfig } from './types.js';

export const DEFAULT_ITERATIONS = 500;
export const DEFAULT_TOLERANCE = 1e-6;
export const DEFAULT_EXAMINATION_MIN_IMPRESSIONS = 20;
export const DEFAULT_PRIOR: PseudoCounts = { positive: 1, negative: 1 };

function assertPrior(name: string, prior: PseudoCounts): void {
  if (!(prior.positive >= 0 && prior.negative >= 0) || prior.positive + prior.negative <= 0) {
    throw new RangeError(`${name} pseudo-counts must be non-negative with a positive sum`);
  }
}

export function resolveConfig(config: ClickModelConfig): ResolvedConfig {
  if (!(CLICK_MODEL_ALGORITHMS as readonly string[]).includes(config.algorithm)) {
    throw new RangeError(`unknown click model algorithm: ${String(config.algorithm)}`);
  }
  const resolved: ResolvedConfig = {
    algorithm: config.algorithm,
    maxDepth: config.maxDepth ?? DEFAULT_MAX_DEPTH,
    iterations: config.iterations ?? DEFAULT_ITERATIONS,
    tolerance: config.tolerance ?? DEFAULT_TOLERANCE,
    prior: config.prior ?? DEFAULT_PRIOR,
    examinationPrior: config.examinationPrior ?? DEFAULT_PRIOR,
    coecExpectation: config.coecExpectation ?? 'best-rank',
    examinationMinImpressions: config.examinationMinImpressions ?? DEFAULT_EXAMINATION_MIN_IMPRESSIONS,
  };
  assertDepth(resolved.maxDepth);
  if (!Number.isInteger(resolved.iterations) || resolved.iterations < 1) {
    throw new RangeError(`iterations must be a positive integer, got ${resolved.iterations}`);
  }
  if (!(resolved.tolerance >= 0)) throw new RangeError('tolerance must be >= 0');
  if (!(resolved.examinationMinImpressions >= 0)) throw new RangeError('examinationMinImpressions must be >= 0');
  assertPrior('prior', resolved.prior);
  assertPrior('examinationPrior', resolved.examinationPrior);
  return resolved;
}

/** Posterior mean of a Bernoulli parameter under Beta(prior) after `positive` of `total`. */
export function smoothed(positive: number, total: number, prior: PseudoCounts): number {
  return (positive + prior.positive) / (total + prior.positive + prior.negative);
}
