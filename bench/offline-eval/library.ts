/**
 * The estimators under test, from src/offline-eval (contract §A), called exactly as the service
 * calls them: propensities harvested from the same log, click models fitted once per log and passed
 * in (so dm-* and dr do not refit per candidate), one evaluateCandidate per candidate and estimator.
 */
import { fitClickModel, type SerializedClickModel } from '../../src/click-models/index.js';
import {
  evaluateCandidate,
  harvestPropensities,
  type Estimator,
  type EvaluationInput,
  type PropensityEstimate,
} from '../../src/offline-eval/index.js';
import type { SimulatedLog } from './logs.js';
import type { Prediction } from './naive.js';
import { DEPTH, METRICS } from './users.js';
import type { Policy, World } from './world.js';

export const LIBRARY_ESTIMATORS: readonly Estimator[] = ['ips', 'snips', 'dm-pbm', 'dm-dbn', 'dr'];

export function isEstimator(name: string): name is Estimator {
  return (LIBRARY_ESTIMATORS as readonly string[]).includes(name);
}

export function harvest(log: SimulatedLog, bootstrap: number): PropensityEstimate {
  return harvestPropensities(log.searches, { maxDepth: DEPTH, bootstrap, seed: 1 });
}

export function fitModels(log: SimulatedLog): { pbm: SerializedClickModel; dbn: SerializedClickModel } {
  return {
    pbm: fitClickModel(log.searches, { algorithm: 'pbm' }).toJSON(),
    dbn: fitClickModel(log.searches, { algorithm: 'dbn' }).toJSON(),
  };
}

/** queryHash → full ranking (result ids, rank 1 first): what a team would upload for a candidate. */
export function rankingsOf(world: World, policy: Policy): Map<string, string[]> {
  return new Map(policy.map((list, q) => [world.queryHashes[q]!, list.map((r) => world.docIds[r]!)]));
}

/** The predicted difference (candidate − logged baseline) per metric, or null when coverage is too low. */
export function libraryEstimate(
  log: SimulatedLog,
  candidate: ReadonlyMap<string, readonly string[]>,
  estimator: Estimator,
  propensities: EvaluationInput['propensities'],
  clickModels: { pbm: SerializedClickModel; dbn: SerializedClickModel } | null,
  bootstrap: number,
): { prediction: Prediction | null; coverage: number } {
  const e = evaluateCandidate({
    searches: log.searches,
    candidate,
    propensities,
    estimator,
    metrics: METRICS,
    depth: DEPTH,
    bootstrap,
    seed: 1,
    ...(clickModels ? { clickModels } : {}),
  });
  if (!e.enoughCoverage) return { prediction: null, coverage: e.coverage };
  const out = {} as Prediction;
  for (const m of METRICS) {
    const found = e.metrics.find((x) => x.metric === m);
    if (!found) throw new Error(`${estimator} returned no ${m}`);
    out[m] = { estimate: found.difference.estimate, interval: found.difference.interval };
  }
  return { prediction: out, coverage: e.coverage };
}
