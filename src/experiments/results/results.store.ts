import type { QuantileGridDelta, RatioSums } from '../../stats/index.js';
import type { MetricName, QuantileSource } from '../../vocabulary/index.js';
import type { DailyMetricSums } from '../model/metric-sums.js';

/** CUPED sums of one metric for one variant: the metric's X/Y with the covariate C/D. */
export interface CovariateSums {
  variantId: string;
  n: number;
  covered: number;
  sumX: number;
  sumY: number;
  sumX2: number;
  sumY2: number;
  sumXY: number;
  sumC: number;
  sumC2: number;
  sumXC: number;
  sumYC: number;
  sumD: number;
  sumD2: number;
  sumXD: number;
  sumYD: number;
  sumCD: number;
}

/** One slice value's sums for one variant: units whose first attributed item carried that value. */
export interface SliceMetricSums {
  value: string;
  variantId: string;
  units: number;
  sums: Partial<Record<MetricName, RatioSums>>;
}

/** One variant-day's quantile grid sums of one source (over the units exposed that day). */
export interface DailyQuantileSums {
  variantId: string;
  day: number;
  source: QuantileSource;
  sums: QuantileGridDelta;
}

/** One slice value's quantile grid sums for one variant and source. */
export interface SliceQuantileSums {
  value: string;
  variantId: string;
  source: QuantileSource;
  sums: QuantileGridDelta;
}

/** Sums of each metric over the units of one variant first exposed within one UTC hour. */
export interface HourlyMetricSums {
  variantId: string;
  /** Hours since the epoch (UTC) of the units' first exposure. */
  hour: number;
  sums: Partial<Record<MetricName, RatioSums>>;
}

/** The read model of results: aggregates over per-unit sums, O(units), never raw events. */
export interface ResultsStore {
  /** Each exposed unit's X and Y of a metric (for capping, which needs the pooled per-unit values: O(units)). */
  unitValues(experimentId: string, phase: number, metric: MetricName): Promise<{ variantId: string; x: number; y: number }[]>;
  /** Per slice value of `dimension` and variant, each metric's sums (maintained by attribution). */
  sliceSums(experimentId: string, phase: number, dimension: string, metrics: readonly MetricName[]): Promise<SliceMetricSums[]>;
  /** Per variant and exposure day, each metric's sums over the units exposed that day. */
  dailySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<DailyMetricSums[]>;
  /**
   * Per variant and exposure hour, each metric's sums over the units exposed that hour, read from the
   * units themselves (O(units)): the results ask for it only while a phase is younger than three days.
   */
  hourlySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<HourlyMetricSums[]>;
  covariateSums(experimentId: string, phase: number, metric: MetricName): Promise<CovariateSums[]>;
  /** Per variant and exposure day, the quantile grid sums of these sources (maintained by attribution). */
  dailyQuantileSums(experimentId: string, phase: number, sources: readonly QuantileSource[]): Promise<DailyQuantileSums[]>;
  /** Per slice value of `dimension` and variant, the quantile grid sums of these sources. */
  sliceQuantileSums(
    experimentId: string,
    phase: number,
    dimension: string,
    sources: readonly QuantileSource[],
  ): Promise<SliceQuantileSums[]>;
  /** The metrics for which at least one unit of the phase has a covariate (CUPED is skipped otherwise). */
  metricsWithCovariates(experimentId: string, phase: number): Promise<string[]>;
}
