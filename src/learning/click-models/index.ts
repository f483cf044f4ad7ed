export type {
  ClickModel,
  ClickModelAlgorithm,
  ClickModelConfig,
  ClickProbabilities,
  CoecExpectation,
  FitSummary,
  ModelParams,
  PairEstimate,
  PseudoCounts,
  ResolvedConfig,
  SearchSession,
  SerializedClickModel,
} from './types.js';
export { CLICK_MODEL_ALGORITHMS } from './types.js';
export { fitClickModel } from './fit.js';
export { restoreClickModel } from './model.js';
export { resolveConfig } from './config.js';
export { createSessionEncoder, encodeSessions, type EncodedLog, type SessionEncoder } from './encode.js';
export { evaluate, splitByTime, type EvaluationOptions, type EvaluationResult, type TimeSplit } from './evaluate.js';
export {
  defaultThresholds,
  toJudgments,
  toOpenSearchJudgments,
  type Grade,
  type GradeMapping,
  type Judgment,
  type JudgmentList,
  type JudgmentOptions,
  type OpenSearchExportOptions,
  type OpenSearchJudgmentImport,
  type Thresholds,
} from './judgments.js';
export { inferSessionsFromClicksOnly, type ClickOnlySearch, type InferredSessions } from './infer.js';
export { simulateClickLog, pairKey, type SimulatedLog, type SimulationOptions } from './simulate.js';
export { mulberry32 } from './prng.js';
export { spearman } from './spearman.js';
