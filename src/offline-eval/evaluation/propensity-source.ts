import { replicateHarvester } from '../harvesting/harvest.js';
import { sessionWeights } from '../log/bootstrap.js';
import { MAX_RANKS, type EncodedSearches } from '../log/encode.js';
import type { EvaluationInput, PropensityEstimate } from '../types.js';

/**
 * Where a replicate's session weights and examination curve come from. With fixed propensities
 * the curve never changes; with `{ harvest }` each replicate re-harvests the curve from the very
 * Poisson weights it evaluates with (the harvest reads every search, the evaluation only the
 * candidate's queries, so the weights are drawn over the harvest's sessions and mapped), which
 * carries the propensities' sampling error into the intervals.
 */
export interface PropensitySource {
  /** The full-sample curve, per 0-based rank up to MAX_RANKS. */
  readonly point: Float64Array;
  /** Replicate b's weights into `weights` (evaluation sessions); its curve into `propensity`. Returns whether the curve may have changed. */
  draw(b: number, seed: number, weights: Uint8Array, propensity: Float64Array): boolean;
  /** With `{ harvest }`, after the loop: the curve as harvestPropensities reports it, from the same draws. */
  harvested?: () => PropensityEstimate;
}

/** `evaluated[j]` is the index in input.searches of the evaluated log's search j. */
export function propensitySource(input: EvaluationInput, log: EncodedSearches, evaluated: readonly number[]): PropensitySource {
  const point = new Float64Array(MAX_RANKS + 1);
  const given = input.propensities;
  if (isCurve(given)) {
    for (let r = 0; r < point.length; r += 1) point[r] = given[Math.min(r, given.length - 1)] as number;
    return { point, draw: (b, seed, weights) => (sessionWeights(log.sessions, b, seed, weights), false) };
  }
  const harvester = replicateHarvester(input.searches, given.harvest.maxDepth ?? 10);
  const toHarvest = new Int32Array(log.sessions);
  for (let j = 0; j < evaluated.length; j += 1)
    toHarvest[log.searchSession[j] as number] = harvester.searchSession[evaluated[j] as number] as number;
  const harvestWeights = new Uint8Array(harvester.sessions);
  harvester.curve(harvestWeights.fill(1), point);
  return {
    point,
    draw(b, seed, weights, propensity) {
      sessionWeights(harvester.sessions, b, seed, harvestWeights);
      for (let s = 0; s < log.sessions; s += 1) weights[s] = harvestWeights[toHarvest[s] as number] as number;
      if (b === 0) return false;
      // dm-* ignore the curve in their scores but still draw it, for the reported estimate.
      harvester.curve(harvestWeights, propensity, point);
      return true;
    },
    harvested: () => harvester.estimate(),
  };
}

function isCurve(p: EvaluationInput['propensities']): p is readonly number[] {
  return Array.isArray(p);
}
