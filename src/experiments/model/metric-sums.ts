import type { RatioSums } from '../../stats/index.js';
import { startingValues, type MetricName, type MomentSums } from '../../vocabulary/index.js';

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

/**
 * A metric's sums over n units from its stored moment sums. The stored sums hold the changes the units
 * brought from empty stats, so each unit starts at the metric's starting values (Y = 1 per unit for a
 * proportion of sessions); no moments (no row yet) reads as the starting values alone.
 */
export function ratioSumsFromMoments(n: number, metric: MetricName, moments?: MomentSums): RatioSums {
  const { x, y } = startingValues(metric);
  return {
    n,
    sumX: n * x + (moments?.sx ?? 0),
    sumY: n * y + (moments?.sy ?? 0),
    sumX2: n * x * x + (moments?.sxx ?? 0),
    sumY2: n * y * y + (moments?.syy ?? 0),
    sumXY: n * x * y + (moments?.sxy ?? 0),
  };
}
