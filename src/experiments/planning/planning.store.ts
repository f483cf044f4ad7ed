import type { MetricName } from '../../vocabulary/index.js';
import type { RatioSums } from '../../stats/index.js';
import type { DailyMetricSums } from '../model/metric-sums.js';

/** A metric's per-session sums over recent raw feedback (for planning, not for results). */
export interface RecentMetricSums {
  sums: RatioSums;
  firstAt: number | null;
  lastAt: number | null;
}

export interface PlanningStore {
  recentSessionSums(metric: MetricName, since: number): Promise<RecentMetricSums>;
}

/** A running experiment's per-day sums, read from the results read model (the module entry passes the results store). */
export interface ExperimentDailySums {
  dailySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<DailyMetricSums[]>;
}
