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
  // The curve is re-harvested in every bootstrap replicate, so the intervals include the
  // propensities' own estimation error; the library then reports the harvested curve from those
  // same draws (equal to harvestPropensities with this maxDepth, seed and 200 replicates), which
  // spares a second harvest. Without enough coverage the bootstrap does not run: harvest here.
  const { propensities: harvested, ...evaluation } = evaluateCandidate({
    searches: input.searches,
    candidate: new Map(input.candidate),
    ...(input.baseline ? { baseline: new Map(input.baseline) } : {}),
    propensities: { harvest: { maxDepth: input.depth } },
    estimator: input.estimator,
    metrics: input.metrics,
    depth: input.depth,
    seed: SEED,
  });
  const propensities = harvested ?? harvestPropensities(input.searches, { maxDepth: input.depth, seed: SEED });
  return { propensities, evaluation, summary: describeEvaluation(evaluation, input.metrics[0]) };
}
