// TEMPORARY shim of src/offline-eval's public types (helper A's branch h26-a); deleted at the merge.
import type { SerializedClickModel } from '../../click-models/index.js';

export interface LoggedSearch {
  queryHash: string;
  sessionId: string;
  resultIds: string[];
  clicks: boolean[];
  satisfied: boolean[];
  context?: string | null;
}
export interface PositionEstimate {
  position: number;
  estimate: number;
  interval: [number, number];
  support: number;
}
export interface PropensityEstimate {
  method: 'allpairs';
  positions: PositionEstimate[];
  harvestedPairs: number;
  byContext?: Record<string, PositionEstimate[]>;
}
export type EvalMetric = 'mrr' | 'clicks_per_search' | 'abandonment_rate' | 'satisfied_clicks' | `ctr@${number}`;
export type Estimator = 'ips' | 'snips' | 'dm-pbm' | 'dm-dbn' | 'dr';
export interface Interval {
  estimate: number;
  interval: [number, number];
}
export interface MetricEvaluation {
  metric: EvalMetric;
  candidate: Interval;
  baseline: Interval;
  difference: Interval;
  relativeDifference: Interval;
  effectiveSampleSize: number;
  coverage: number;
}
export interface CandidateEvaluation {
  estimator: Estimator;
  searches: number;
  queries: number;
  sessions: number;
  coverage: number;
  enoughCoverage: boolean;
  metrics: MetricEvaluation[];
  observedBaseline: Record<string, number>;
  interleaving: { wins: number; losses: number; ties: number; shareWon: number };
  intervalMethod: string;
}
export function harvestPropensities(
  _searches: readonly LoggedSearch[],
  _options?: { maxDepth?: number; bootstrap?: number; seed?: number; byContext?: boolean },
): PropensityEstimate {
  throw new Error('offline-eval library not merged yet');
}
export function evaluateCandidate(_input: {
  searches: readonly LoggedSearch[];
  candidate: ReadonlyMap<string, readonly string[]>;
  baseline?: ReadonlyMap<string, readonly string[]>;
  propensities: readonly number[];
  estimator: Estimator;
  metrics: readonly EvalMetric[];
  depth?: number;
  bootstrap?: number;
  seed?: number;
  minCoverage?: number;
  clickModels?: { pbm?: SerializedClickModel; dbn?: SerializedClickModel };
}): CandidateEvaluation {
  throw new Error('offline-eval library not merged yet');
}
export function describeEvaluation(_e: CandidateEvaluation, _primaryMetric?: EvalMetric): string {
  throw new Error('offline-eval library not merged yet');
}
