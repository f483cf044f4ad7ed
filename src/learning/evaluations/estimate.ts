import {
  describeEvaluation,
  evaluateCandidate,
  harvestPropensities,
  type CandidateEvaluation,
  type Estimator,
  type EvalMetric,
  type LoggedSearch,
  type PropensityEstimate,
} from '../../offline-eval/index.js';

/** One evaluation's numbers, in plain data (it crosses to a worker thread and back). */
export interface EstimationInput {
  searches: LoggedSearch[];
  candidate: [string, string[]][];
  baseline?: [string, string[]][];
  estimator: Estimator;
  metrics: EvalMetric[];
  depth: number;
}

export interface EstimationOutput {
  propensities: PropensityEstimate;
  evaluation: CandidateEvaluation;
  summary: string;
}

/** Fixed so that the same window and candidate give the same intervals on every call. */
const SEED = 1;

/**
 * Propensities harvested from the window itself (Agarwal et al. 2019), then the estimator over the
 * same searches, re-harvesting them per bootstrap replicate. The click models of dm-* and dr are
 * fitted by the library from these searches.
 */
export function estimate(input: EstimationInput): EstimationOutput {
  const propensities = harvestPropensities(input.searches, { maxDepth: input.depth, seed: SEED });
  const evaluation = evaluateCandidate({
    searches: input.searches,
    candidate: new Map(input.candidate),
    ...(input.baseline ? { baseline: new Map(input.baseline) } : {}),
    // Re-harvested in every bootstrap replicate (same maxDepth, so the point curve is the one
    // reported above): the intervals then include the propensities' own estimation error.
    propensities: { harvest: { maxDepth: input.depth } },
    estimator: input.estimator,
    metrics: input.metrics,
    depth: input.depth,
    seed: SEED,
  });
  return { propensities, evaluation, summary: describeEvaluation(evaluation, input.metrics[0]) };
}
