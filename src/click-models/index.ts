/**
 * Click models for search feedback — pure code, no I/O, safe inside a worker thread.
 *
 * fitClickModel(sessions | encodedLog, { algorithm, ... }) → ClickModel
 *   ctr      document CTR (CMWS §3.2), Beta-smoothed; examination = rank CTR / max.
 *   coec     clicks over expected clicks as OpenSearch Search Relevance computes it.
 *   pbm      position-based model, EM over (pair, rank) cells; examination = γ_r.
 *   ubm      user browsing model, EM over (pair, rank, previous click) cells;
 *            examination = γ_{r,r'} averaged over the observed r'.
 *   cascade  closed form; examination = implied P(E_r = 1) averaged over sessions.
 *   sdbn     closed form (λ = 1); relevance = α·σ; examination as cascade.
 *   dbn      exact EM; relevance = α·σ; examination as cascade.
 * model.toJSON() / restoreClickModel(json) store and restore it; evaluate() scores
 * held-out sessions; toJudgments() / toOpenSearchJudgments() grade pairs 0–4.
 */
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
export { resolveConfig } from './fit-config.js';
export { createSessionEncoder, encodeSessions, type EncodedLog, type SessionEncoder } from './sessions/encode.js';
export { evaluate, splitByTime, type EvaluationOptions, type EvaluationResult, type TimeSplit } from './evaluation/evaluate.js';
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
} from './judgments/judgments.js';
export { inferSessionsFromClicksOnly, type ClickOnlySearch, type InferredSessions } from './sessions/infer.js';
export { simulateClickLog, pairKey, type SimulatedLog, type SimulationOptions } from './sessions/simulate.js';
export { spearman } from './evaluation/spearman.js';
