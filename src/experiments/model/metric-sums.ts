import type { RatioSums } from '../../stats/index.js';
import type { MetricName } from '../../vocabulary/index.js';

/** Sums of one metric over the units of one variant exposed on one day (UTC). */
export interface DailyMetricSums {
  variantId: string;
  /** Days since the epoch (UTC) of the units' first exposure. */
  day: number;
  sums: Partial<Record<MetricName, RatioSums>>;
}

export const addSums = (a: RatioSums, b: RatioSums): RatioSums => ({
  n: a.n + b.n,
  sumX: a.sumX + b.sumX,
  sumY: a.sumY + b.sumY,
  sumX2: a.sumX2 + b.sumX2,
  sumY2: a.sumY2 + b.sumY2,
  sumXY: a.sumXY + b.sumXY,
});
export const ZERO_SUMS: RatioSums = { n: 0, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 };
