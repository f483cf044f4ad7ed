import { analyzeEffect, type FrequentistOptions, type FrequentistResult } from '../frequentist/frequentist.js';
import { estimateEffect } from '../frequentist/moments.js';
import type { EffectEstimate, RatioSums } from '../types.js';

export {
  DEFAULT_SEQUENTIAL_TUNING,
  sequentialHalfwidth,
  sequentialOneSidedHalfwidth,
  sequentialOneSidedPValue,
  sequentialPValue,
  sequentialRho,
} from './confidence-sequence.js';

export interface SequentialOptions extends FrequentistOptions {
  /** N*: total units at which the confidence sequence is tightest. Default 5000. */
  readonly tuningParameter?: number;
}

/**
 * Sequential (always-valid) test on an effect estimate; safe to look at after every day.
 * Legacy entry point: scale defaults to 'absolute' (see `analyzeEffect` for the scale-aware one).
 */
export function sequentialEffectTest(effect: EffectEstimate, options: SequentialOptions = {}): FrequentistResult {
  return analyzeEffect(effect, { ...options, scale: options.scale ?? 'absolute', method: 'sequential' });
}

/** Sequential test of a variant against control from each arm's sufficient statistics. */
export function sequentialTest(control: RatioSums, variant: RatioSums, options: SequentialOptions = {}): FrequentistResult {
  return sequentialEffectTest(estimateEffect(control, variant), options);
}
