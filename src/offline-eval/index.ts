/**
 * Offline evaluation — pure code, no I/O (issue 26): position bias harvested from the service's
 * own logs (AllPairs intervention harvesting), and a candidate ranking's predicted online metrics
 * from logged clicks (IPS, SNIPS, the direct method over a click model, doubly robust), with
 * Poisson-bootstrap intervals over sessions, coverage, and the expected interleaving outcome.
 * The method, its formulas and its references: docs/offline-evaluation.md.
 */
export type {
  CandidateEvaluation,
  ClickModelsInput,
  EvalMetric,
  EvaluationInput,
  Estimator,
  HarvestOptions,
  InterleavingExpectation,
  Interval,
  LoggedSearch,
  MetricEvaluation,
  PositionEstimate,
  PropensityEstimate,
} from './types.js';
export { ESTIMATORS } from './types.js';
export { harvestPropensities } from './harvesting/harvest.js';
export { evaluateCandidate } from './evaluation/evaluate.js';
export { describeEvaluation } from './describe.js';
export { metricLabel, parseMetric } from './estimators/metrics.js';
export { expectedTeamDraftCredit } from './evaluation/interleaving.js';
export { simulatePbmLog, pbmTruth, DEFAULT_EXAMINATION, type PbmLog, type PbmLogOptions } from './simulation/simulate.js';
