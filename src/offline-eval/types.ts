/**
 * The shapes of offline evaluation (issue 26 contract, section A). Plain data only, so a
 * worker thread or the HTTP layer can pass them along as they are.
 */
import type { SerializedClickModel } from '../click-models/index.js';

/** One logged search (a queryId) as shown to the user, ranks 1..n contiguous, capped at maxDepth. */
export interface LoggedSearch {
  queryHash: string;
  /** The bootstrap cluster: searches of one session are resampled together. */
  sessionId: string;
  /** Rank 1 first. */
  resultIds: string[];
  /** Same length as resultIds. */
  clicks: boolean[];
  /** Satisfied clicks (vocabulary isSatisfiedClick), same length. */
  satisfied: boolean[];
  /** E.g. deviceType, for per-context propensities (Fang, Agarwal & Joachims 2019). */
  context?: string | null;
}

export interface PositionEstimate {
  position: number;
  estimate: number;
  interval: [number, number];
  /** Harvested (query, result) pairs that tie this position to position 1; 0 = no estimate (see docs). */
  support: number;
}

export interface PropensityEstimate {
  /** Intervention harvesting, Agarwal et al. WSDM 2019. */
  method: 'allpairs';
  /** Position 1 has estimate 1, interval [1, 1]. */
  positions: PositionEstimate[];
  /** (query, result) pairs seen at two or more positions. */
  harvestedPairs: number;
  byContext?: Record<string, PositionEstimate[]>;
}

export interface HarvestOptions {
  /** Ranks deeper than this are ignored. Default 10. */
  maxDepth?: number;
  /** Bootstrap replicates. Default 200. */
  bootstrap?: number;
  /** Default 1. */
  seed?: number;
  /** Also estimate per LoggedSearch.context (missing context counts as 'unknown'). */
  byContext?: boolean;
}

export type EvalMetric = 'mrr' | 'clicks_per_search' | 'abandonment_rate' | 'satisfied_clicks' | `ctr@${number}`;
export type Estimator = 'ips' | 'snips' | 'dm-pbm' | 'dm-dbn' | 'dr';
export const ESTIMATORS: readonly Estimator[] = ['ips', 'snips', 'dm-pbm', 'dm-dbn', 'dr'];

export interface Interval {
  estimate: number;
  interval: [number, number];
}

export interface MetricEvaluation {
  metric: EvalMetric;
  candidate: Interval;
  baseline: Interval;
  /** candidate − baseline. */
  difference: Interval;
  /** (candidate − baseline) / baseline; 0 when the baseline is 0. */
  relativeDifference: Interval;
  /** Kish ESS of the importance weights. */
  effectiveSampleSize: number;
  /** Share (0–1) of the candidate's top-k with logged evidence. */
  coverage: number;
}

export interface InterleavingExpectation {
  /** Query-frequency weighted: a query won counts its logged searches. */
  wins: number;
  losses: number;
  ties: number;
  /** wins / (wins + losses), as online interleaving reports it; 0.5 when nothing is decided. */
  shareWon: number;
}

export interface CandidateEvaluation {
  estimator: Estimator;
  searches: number;
  queries: number;
  sessions: number;
  /** Over the candidate's top-`depth`, query-frequency weighted. */
  coverage: number;
  /** coverage ≥ minCoverage; when false `metrics` is [] (no estimate). */
  enoughCoverage: boolean;
  metrics: MetricEvaluation[];
  /** The raw logged (on-policy) value per metric. */
  observedBaseline: Record<string, number>;
  /** Expected team-draft outcome vs the baseline, per query weighted by frequency. */
  interleaving: InterleavingExpectation;
  intervalMethod: string;
  /** Added beyond the contract: the settings the figures were computed with. */
  depth: number;
  minCoverage: number;
  /**
   * Added beyond the contract: with `propensities: { harvest }` and enough coverage, the harvested
   * curve and its intervals from the evaluation's own replicates — what harvestPropensities returns
   * with the same maxDepth, seed and bootstrap, so the caller need not harvest a second time.
   */
  propensities?: PropensityEstimate;
}

export interface ClickModelsInput {
  pbm?: SerializedClickModel;
  dbn?: SerializedClickModel;
}

export interface EvaluationInput {
  searches: readonly LoggedSearch[];
  /** queryHash → ranking (rank 1 first). Only logged searches of these queries are evaluated. */
  candidate: ReadonlyMap<string, readonly string[]>;
  /** Default: each search's own logged list. A query missing here falls back to its logged lists. */
  baseline?: ReadonlyMap<string, readonly string[]>;
  /**
   * Index 0 = position 1 (= 1); deeper ranks than given reuse the last value. Or `{ harvest }`:
   * the library harvests them itself from `searches` (AllPairs, as harvestPropensities with that
   * maxDepth, default 10) and again in every bootstrap replicate from the replicate's own session
   * weights, so the intervals include the propensities' estimation error (fixed propensities
   * leave it out: ips/snips intervals then cover too rarely, docs/offline-evaluation.md).
   */
  propensities: readonly number[] | { harvest: Pick<HarvestOptions, 'maxDepth'> };
  estimator: Estimator;
  metrics: readonly EvalMetric[];
  /** Default 10 (top-k for coverage and metrics). */
  depth?: number;
  /** Default 200. */
  bootstrap?: number;
  /** Default 1. */
  seed?: number;
  /** Default 0.5. */
  minCoverage?: number;
  /** For dm-* and dr; fitted by the library from `searches` when absent. */
  clickModels?: ClickModelsInput;
}
