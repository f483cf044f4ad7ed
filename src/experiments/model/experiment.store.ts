import type { AliasMove } from '../ports/model-catalog.js';
import type { NewestFirstKey } from '../../common/pagination.js';
import type { ExperimentState } from './lifecycle.js';
import type { Condition } from '../bucketing/index.js';
import type { AnalysisMetricName, MetricName } from '../../vocabulary/index.js';

export interface VariantRecord {
  id: string;
  name: string;
  weight: number;
  config: Record<string, unknown>;
  /** The ranker behind the variant; none means the original order. */
  model?: VariantModel;
}

export interface VariantModel {
  modelId: string;
  /** A fixed version requested at creation. */
  version?: number;
  /** The version the current phase serves: `version`, or the active one when the phase started. */
  pinnedVersion?: number;
}

export type ExperimentType = 'ab' | 'interleaving';
export type InterleavingMethodName = 'team-draft' | 'team-draft-multileave';

export interface LayerSlice {
  id: string;
  range: [number, number];
}

export interface ExperimentConfiguration {
  variants: VariantRecord[];
  trafficAllocation: number;
  targetMetrics: AnalysisMetricName[];
  seed?: string;
  layer?: LayerSlice;
  conditions?: Condition;
  controlVariantId?: string;
  analysis: AnalysisSettings;
  /** Absent on rows written before interleaving existed: 'ab'. */
  type?: ExperimentType;
  interleaving?: { method: InterleavingMethodName; depth: number };
  promote?: { alias: string };
}

/** A guardrail: a one-sided non-inferiority test of a metric the experiment must not harm. */
export interface GuardrailSetting {
  metric: AnalysisMetricName;
  /** Which way is good; default the catalogue's. */
  direction?: 'higher' | 'lower';
  /** Largest tolerated degradation (≥ 0) on the guardrail's scale. */
  margin: number;
  /** The scale of the margin (default relative: 0.02 = 2 %); a read's ?scale= does not change it. */
  scale?: 'relative' | 'absolute';
  /** Pause the experiment when the always-valid (sequential) test says the guardrail is breached. */
  autoPause?: boolean;
}

export interface AnalysisSettings {
  /** The one scale of every verdict of a results read (p-value, interval, significance, Bayesian view). */
  scale: 'relative' | 'absolute';
  method: 'fixed' | 'sequential';
  alpha: number;
  correction: 'holm' | 'benjamini-hochberg' | 'none';
  sequentialTuning: number;
  mde: number;
  bayesianPrior: 'improper' | 'proper';
  cuped: boolean;
  /** Reported apart from the target metrics, outside their multiple-testing family. */
  guardrails: GuardrailSetting[];
  /**
   * Slice dimensions attribution keeps sums for (…/results?dimension=): feedback fields, or assign
   * attributes as `attr:<name>` (slice-dimensions.ts, validated by the schema's pattern); fixed for a phase when it starts.
   */
  dimensions: string[];
  /** Per-metric normal priors of the Bayesian view, on `scale` (default relative); others use bayesianPrior. */
  priors?: Partial<Record<MetricName, { mean: number; stdDev: number; scale?: 'relative' | 'absolute' }>>;
  /** Per-metric caps of the per-unit numerator (pooled percentile or absolute); ?capping=off reads uncapped. */
  capping?: Partial<Record<MetricName, { type: 'percentile'; value: number } | { type: 'absolute'; value: number }>>;
}

export interface Conclusion {
  decision: 'ship' | 'rollback' | 'inconclusive';
  winnerVariantId: string | null;
  notes: string | null;
  concludedAt: number;
  /** True when shipped over a failed SRM check. */
  forced?: boolean;
  /** The alias move made in the same write as the conclusion. */
  promotion?: { alias: string; modelId: string; version: number; from: { modelId: string; version: number | null } | null };
  /** What serves searches afterwards, in one sentence (conclusions before issue 25 have none). */
  summary?: string;
}

export interface ExperimentEvent {
  id: string;
  experimentId: string;
  at: number;
  actor: string;
  action: string;
  before: unknown;
  after: unknown;
}

/** A phase's seed and the configuration it randomized with. */
export interface PhaseRecord {
  experimentId: string;
  phase: number;
  seed: string;
  configuration: ExperimentConfiguration;
  startedAt: number;
  endedAt: number | null;
}

/** One write: the new state of the experiment, its audit event and any phase bookkeeping. */
export interface ExperimentChange {
  next: ExperimentRecord;
  event: ExperimentEvent;
  /** Close the current phase at this time (stop, conclude, archive, new phase). */
  endPhaseAt?: number;
  /** Open a phase (first start, or a new phase). */
  startPhase?: PhaseRecord;
  /** Move a model alias in the same transaction (promotion at conclude). */
  aliasMove?: AliasMove;
}

export interface ExperimentRecord {
  id: string;
  name: string;
  description: string | null;
  /** The experiment's state in the lifecycle state machine. */
  status: ExperimentState;
  startDate: number | null;
  endDate: number | null;
  configuration: ExperimentConfiguration;
  phase: number;
  conclusion: Conclusion | null;
  createdAt: number;
  updatedAt: number;
}

export interface ExperimentFilter {
  status?: ExperimentState;
  after?: NewestFirstKey;
}

export interface ExperimentStore {
  /** Stores the experiment with its creation event; 'duplicate' (nothing written) when the name is taken. */
  insert(experiment: ExperimentRecord, event: ExperimentEvent): Promise<'inserted' | 'duplicate'>;
  get(id: string): Promise<ExperimentRecord | undefined>;
  /** Newest first. */
  list(filter: ExperimentFilter, limit: number): Promise<ExperimentRecord[]>;
  /**
   * Applies a change if the stored row still has `expectedUpdatedAt` (optimistic concurrency,
   * so two instances never both apply a transition). 'stale' means nothing was written;
   * 'duplicate' means a rename hit another experiment's name.
   */
  update(change: ExperimentChange, expectedUpdatedAt: number): Promise<'updated' | 'stale' | 'duplicate'>;
  listEvents(experimentId: string, afterId: string | undefined, limit: number): Promise<ExperimentEvent[]>;
  getPhase(experimentId: string, phase: number): Promise<PhaseRecord | undefined>;
  listPhases(experimentIds: string[]): Promise<PhaseRecord[]>;
  /** Experiments that assignment serves: running, and concluded ones (a winner is served to all). */
  listServing(): Promise<ExperimentRecord[]>;
  /** Changes whenever any experiment changes; a cheap poll for other instances' edits. */
  revision(): Promise<string>;
  /** Scheduled experiments whose start has come, and running or paused ones whose end has passed. */
  listDue(now: number): Promise<ExperimentRecord[]>;
}
