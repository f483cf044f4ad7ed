import type { NewestFirstKey } from '../common/pagination.js';
import type { ExperimentStatus } from './experiment.schemas.js';
import type { MetricName } from './metric-catalogue.js';

export interface VariantRecord {
  id: string;
  name: string;
  weight: number;
  config: Record<string, unknown>;
}

export interface ExperimentConfiguration {
  variants: VariantRecord[];
  trafficAllocation: number;
  targetMetrics: MetricName[];
}

export interface ExperimentRecord {
  id: string;
  name: string;
  description: string | null;
  status: ExperimentStatus;
  startDate: number | null;
  endDate: number | null;
  configuration: ExperimentConfiguration;
  createdAt: number;
  updatedAt: number;
}

export interface ExperimentFilter {
  status?: ExperimentStatus;
  after?: NewestFirstKey;
}

export interface ExperimentStore {
  /** Returns 'duplicate' (and writes nothing) when the name is taken. */
  insert(experiment: ExperimentRecord): Promise<'inserted' | 'duplicate'>;
  get(id: string): Promise<ExperimentRecord | undefined>;
  /** Newest first. */
  list(filter: ExperimentFilter, limit: number): Promise<ExperimentRecord[]>;
}
