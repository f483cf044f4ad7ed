import type { Generated } from 'kysely';
import type { MomentSums, UnitStatColumn } from '../../vocabulary/index.js';

/** The experiments module's tables: definitions, phases and events, exposures (units, searches), the sums results read, interleaved lists. Composed into `Database` by storage/schema.ts. */
export interface ExperimentsTables {
  experiments: ExperimentTable;
  experiment_phases: ExperimentPhaseTable;
  experiment_events: ExperimentEventTable;
  experiment_units: ExperimentUnitTable;
  experiment_searches: ExperimentSearchTable;
  experiment_unit_covariates: ExperimentUnitCovariateTable;
  experiment_variant_units: ExperimentVariantUnitsTable;
  experiment_variant_sums: ExperimentVariantSumsTable;
  experiment_unit_slices: ExperimentUnitSlicesTable;
  experiment_slice_sums: ExperimentSliceSumsTable;
  experiment_quantile_sums: ExperimentQuantileSumsTable;
  experiment_slice_quantile_sums: ExperimentSliceQuantileSumsTable;
  experiment_query_sums: ExperimentQuerySumsTable;
  interleaved_queries: InterleavedQueryTable;
  rank_exploration_settings: RankExplorationSettingsTable;
  rank_exploration_events: RankExplorationEventTable;
  exploration_lists: ExplorationListTable;
}

export interface ExperimentTable {
  id: string;
  name: string;
  description: string | null;
  status: string;
  start_date: number | null;
  end_date: number | null;
  configuration: string;
  created_at: number;
  updated_at: number;
  phase: Generated<number>;
  conclusion: string | null;
}

export interface ExperimentPhaseTable {
  experiment_id: string;
  phase: number;
  seed: string;
  configuration: string;
  started_at: number;
  ended_at: number | null;
}

export interface ExperimentEventTable {
  id: string;
  experiment_id: string;
  at: number;
  actor: string;
  action: string;
  before: string | null;
  after: string | null;
}

export type ExperimentUnitTable = {
  experiment_id: string;
  phase: number;
  unit_id: string;
  variant_id: string;
  exposed_at: number;
  covariates: string | null;
  /** JSON {attribute: value} of the declared `attr:` slice dimensions, from the first exposure (0031). */
  slice_attributes?: string | null;
  /** JSON {source: sorted grid positions} of the unit's quantile-metric items (0032). */
  quantile_positions?: string | null;
} & { [K in UnitStatColumn]: Generated<number> };

/** Quantile grid sums (0032): units, items, Σm² and per-threshold Σc, Σc², Σc·m as JSON `[from, to, …values]`. */
export interface QuantileGridColumns {
  source: string;
  units: number;
  items: number;
  items_squared: number;
  below: string;
  below_squared: string;
  below_times_items: string;
}

export interface ExperimentQuantileSumsTable extends QuantileGridColumns {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
}

export interface ExperimentSliceQuantileSumsTable extends QuantileGridColumns {
  experiment_id: string;
  phase: number;
  dimension: string;
  value: string;
  variant_id: string;
}

export interface ExperimentSearchTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  query_id: string;
  has_click: Generated<number>;
}

export interface ExperimentUnitCovariateTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  metric: string;
  x: number;
  y: number;
  source: string;
}

export interface ExperimentVariantUnitsTable {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
  units: number;
}

export interface ExperimentVariantSumsTable extends MomentSums {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
  metric: string;
}

export interface ExperimentUnitSlicesTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  /** JSON {dimension: value}. */
  slice_values: string;
}

export interface ExperimentSliceSumsTable extends MomentSums {
  experiment_id: string;
  phase: number;
  dimension: string;
  value: string;
  variant_id: string;
  metric: string;
  units: number;
}

/** Per experiment phase, variant and query hash: searches and searches with a click, kept by attribution (0080). */
export interface ExperimentQuerySumsTable {
  experiment_id: string;
  phase: number;
  variant_id: string;
  query_hash: string;
  searches: number;
  clicked_searches: number;
  /** Latest received_at of the items that opened or first clicked one of these searches. */
  last_seen: number;
}

export interface InterleavedQueryTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  query_id: string;
  recorded_at: number;
  /** JSON: {teams, depth, results: [[resultId, teamIndex], …]} in shown order. */
  list: string;
  /** JSON QueryCredit once a click was folded in; null before. */
  credit: string | null;
}

/** Light exploration on rank (migration 0102): one row, id 'rank'; no row means off. */
export interface RankExplorationSettingsTable {
  id: string;
  share: number;
  depth: number;
  method: string;
  /** When the share last went from 0 to above 0; null while it never did. */
  enabled_at: number | null;
  updated_at: number;
  updated_by: string;
}

/** Every change of the exploration settings: who, when, before and after (JSON). */
export interface RankExplorationEventTable {
  id: string;
  at: number;
  actor: string;
  before: string | null;
  after: string;
}

/** One explored search as shown: the list (JSON result ids, rank 1 first), the swapped ranks, its propensity. */
export interface ExplorationListTable {
  unit_id: string;
  query_id: string;
  query_hash: string | null;
  list: string;
  swapped_from: number;
  swapped_to: number;
  /** Probability of this list given the unit is explored (1 / (k − 1)). */
  propensity: number;
  /** The share of units explored when it was shown. */
  share: number;
  recorded_at: number;
}
