import type { Generated } from 'kysely';

/** The learning module's tables: models, their versions and training state, training jobs and datasets, aliases. Composed into `Database` by storage/schema.ts. */
export interface LearningTables {
  models: ModelTable;
  training_jobs: TrainingJobTable;
  model_versions: ModelVersionTable;
  model_training_state: ModelTrainingStateTable;
  training_datasets: TrainingDatasetTable;
  model_aliases: ModelAliasTable;
  model_alias_events: ModelAliasEventTable;
  offline_evaluations: OfflineEvaluationTable;
}

export interface ModelTable {
  id: string;
  name: string;
  type: string;
  status: string;
  config: string;
  metrics: string;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface TrainingJobTable {
  id: string;
  model_id: string;
  status: string;
  reason: string;
  force: Generated<number>;
  run_after: number;
  requested_at: number;
  started_at: number | null;
  finished_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  attempts: Generated<number>;
  error: string | null;
  version: number | null;
}

export interface ModelVersionTable {
  model_id: string;
  version: number;
  job_id: string;
  outcome: string;
  message: string | null;
  metrics: string;
  counts: string;
  window_start: number | null;
  window_end: number | null;
  training_seconds: number;
  artifact: string;
  created_at: number;
}

export interface ModelTrainingStateTable {
  model_id: string;
  active_version: number | null;
  latest_version: Generated<number>;
  last_outcome: string | null;
  next_retrain_at: number | null;
}

export interface TrainingDatasetTable {
  model_id: string;
  format: string;
  content: string;
  bytes: number;
  rows: number;
  queries: number;
  features: number;
  uploaded_at: number;
}

export interface ModelAliasTable {
  alias: string;
  /** null: cleared, the alias serves the engine's original order. */
  model_id: string | null;
  version: number | null;
  updated_at: number;
  updated_by: string;
  /** The latest move's reason and experiment (migration 0100). */
  reason: string | null;
  experiment_id: string | null;
}

export interface ModelAliasEventTable {
  id: string;
  alias: string;
  at: number;
  actor: string;
  from_model_id: string | null;
  from_version: number | null;
  /** null: cleared to the engine's original order. */
  to_model_id: string | null;
  to_version: number | null;
  reason: string | null;
  experiment_id: string | null;
}

/** Offline evaluations of a candidate ranking over logged feedback (migration 0101). */
export interface OfflineEvaluationTable {
  id: string;
  /** Last sign of life of a running evaluation (insert, progress, a 15 s beat). */
  heartbeat_at: number;
  name: string;
  /** running | done | failed */
  status: string;
  /** 0..1 */
  progress: number;
  /** The request as resolved at creation (JSON). */
  request: string;
  /** The evaluation's answer (JSON), once done. */
  result: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
  created_by: string;
  /** The candidate's model and the version evaluated (null for uploaded rankings and cleared aliases). */
  candidate_model_id: string | null;
  candidate_version: number | null;
}
