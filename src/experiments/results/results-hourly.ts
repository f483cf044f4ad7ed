import { HOUR_MS } from '../../common/time.js';
import type { RatioSums } from '../../stats/index.js';
import { isQuantileMetric, type MetricName } from '../../vocabulary/index.js';
import { addSums, ZERO_SUMS } from '../model/metric-sums.js';
import { compare } from './results-analysis.js';
import type { MetricReads } from './results-metrics.js';
import type { HourlyMetricSums } from './results.store.js';

/**
 * The cumulative series by exposure hour, for a phase younger than three days: one or two daily
 * points draw no curve, 24 hourly ones do. Each hour, the metric over the units exposed up to the end
 * of that hour and each treatment's lift with its interval, as the daily series computes them
 * (unadjusted, uncapped, without CUPED). Ratio metrics only: quantile grids are kept per day.
 */
export function hourlySeries(reads: Pick<MetricReads, 'metrics' | 'variants' | 'control' | 'settings'>, rows: HourlyMetricSums[]) {
  const { variants, control, settings } = reads;
  const metrics = reads.metrics.filter((m): m is MetricName => !isQuantileMetric(m));
  const hours = [...new Set(rows.map((r) => r.hour))].sort((a, b) => a - b);
  const upTo = (metric: MetricName, variantId: string, hour: number): RatioSums =>
    rows
      .filter((r) => r.variantId === variantId && r.hour <= hour)
      .reduce((acc, r) => addSums(acc, r.sums[metric] ?? ZERO_SUMS), ZERO_SUMS);
  return metrics.map((metric) => ({
    metric,
    points: hours.flatMap((hour) =>
      variants.map((v) => {
        const s = upTo(metric, v.id, hour);
        const lift =
          v.id === control.id
            ? null
            : compare(metric, { id: control.id, sums: upTo(metric, control.id, hour) }, { id: v.id, sums: s }, settings).result;
        return {
          start: new Date(hour * HOUR_MS).toISOString(),
          variantId: v.id,
          units: s.n,
          value: s.sumY > 0 ? s.sumX / s.sumY : null,
          estimate: lift?.estimate ?? null,
          interval: lift?.interval ?? null,
        };
      }),
    ),
  }));
}
