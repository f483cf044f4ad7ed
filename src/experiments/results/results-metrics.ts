import { DAY_MS } from '../../common/time.js';
import type { RatioSums, QuantileEstimate, QuantileGridDelta } from '../../stats/index.js';
import {
  isQuantileMetric,
  metricDirection,
  quantileMetricDefinition,
  QUANTILE_GRID_SPEC,
  type AnalysisMetricName,
  type MetricName,
  type QuantileMetricName,
} from '../../vocabulary/index.js';
import type { VariantRecord } from '../model/experiment.store.js';
import { armQuantile, compareQuantileMetric, quantileVariant, sumGrids } from './results-quantiles.js';
import { compare, type Analysed, type ReadSettings } from './results-analysis.js';
import type { CappedMetric } from './results-capping.js';
import type { CovariateSums, ResultsStore } from './results.store.js';

/** The per-metric part of an A/B read: each target metric's arms and comparisons, and its daily series. */

const QUANTILE_GRID_DESCRIPTION = `0, then ${QUANTILE_GRID_SPEC.start} ms × ${QUANTILE_GRID_SPEC.ratio}^i up to ${QUANTILE_GRID_SPEC.end} ms (linear interpolation between thresholds: within ${Math.round((QUANTILE_GRID_SPEC.ratio - 1) * 100)} % of the item quantile)`;

/** An arm's quantile of a quantile metric, up to an exposure day (the whole phase by default). */
export type QuantileReader = (metric: QuantileMetricName, variantId: string, upToDay?: number) => QuantileEstimate;

/**
 * Each arm's quantile of a quantile metric up to an exposure day, from the variant-day grid sums
 * attribution keeps (O(variants × days × sources) rows, read once per results request).
 */
export async function readQuantiles(
  store: Pick<ResultsStore, 'dailyQuantileSums'>,
  experimentId: string,
  phase: number,
  metrics: readonly QuantileMetricName[],
): Promise<QuantileReader> {
  const sources = [...new Set(metrics.map((m) => quantileMetricDefinition(m).source))];
  const rows = sources.length ? await store.dailyQuantileSums(experimentId, phase, sources) : [];
  // Cumulative sums per (source, variant) by day, built once: the series reads every day of every arm.
  const cumulative = new Map<string, { day: number; sums: QuantileGridDelta }[]>();
  for (const r of [...rows].sort((a, b) => a.day - b.day)) {
    const key = `${r.source}\u0000${r.variantId}`;
    const list = cumulative.get(key) ?? [];
    list.push({ day: r.day, sums: sumGrids(list.length ? [list[list.length - 1]!.sums, r.sums] : [r.sums]) });
    cumulative.set(key, list);
  }
  const memo = new Map<string, QuantileEstimate>();
  return (metric, variantId, upToDay = Infinity) => {
    const list = cumulative.get(`${quantileMetricDefinition(metric).source}\u0000${variantId}`) ?? [];
    const upTo = list.filter((c) => c.day <= upToDay).at(-1);
    const key = `${metric}\u0000${variantId}\u0000${upTo?.day ?? 'none'}`;
    let estimate = memo.get(key);
    if (!estimate) memo.set(key, (estimate = armQuantile(metric, upTo?.sums ?? sumGrids([]))));
    return estimate;
  };
}

/** What the per-metric analysis reads: the phase's arms and the sums readers the service built. */
export interface MetricReads {
  metrics: AnalysisMetricName[];
  variants: VariantRecord[];
  control: VariantRecord;
  /** Whole-phase sums, capped where capping applies. */
  totals: (metric: MetricName, variantId: string) => RatioSums;
  /** Sums up to an exposure day, uncapped. */
  uncapped: (metric: MetricName, variantId: string, upToDay?: number) => RatioSums;
  cov: (m: MetricName, id: string) => CovariateSums | undefined;
  quantiles: QuantileReader;
  capped: Map<MetricName, CappedMetric>;
  settings: ReadSettings;
}

/** Each target metric's arms and comparisons; `all` collects the comparisons for the multiple-testing correction. */
export function analyseMetrics(reads: MetricReads) {
  const { metrics, variants, control, totals, cov, quantiles, capped, settings } = reads;
  const all: Analysed[] = [];
  const treatments = variants.filter((v) => v.id !== control.id);
  const metricResults = metrics.map((metric) => {
    if (isQuantileMetric(metric)) {
      const estimate = (id: string) => quantiles(metric, id);
      const comparisons = treatments.map((v) => {
        const { result, test } = compareQuantileMetric(
          metric,
          { id: control.id, estimate: estimate(control.id) },
          { id: v.id, estimate: estimate(v.id) },
          settings,
          metrics.length * (variants.length - 1),
        );
        all.push({ metric, variantName: v.name, result, test });
        return result;
      });
      const { q, source } = quantileMetricDefinition(metric);
      return {
        metric,
        direction: metricDirection(metric),
        variants: variants.map((v) => quantileVariant(v.id, estimate(v.id))),
        comparisons,
        capping: null,
        quantile: { q, source, grid: QUANTILE_GRID_DESCRIPTION },
      };
    }
    const comparisons = variants
      .filter((v) => v.id !== control.id)
      .map((v) => {
        const { result, test } = compare(
          metric,
          { id: control.id, sums: totals(metric, control.id), covariates: cov(metric, control.id) },
          { id: v.id, sums: totals(metric, v.id), covariates: cov(metric, v.id) },
          settings,
          metrics.length * (variants.length - 1),
        );
        all.push({ metric, variantName: v.name, result, test });
        return result;
      });
    return {
      metric,
      direction: metricDirection(metric),
      variants: variants.map((v) => {
        const s = totals(metric, v.id);
        return { variantId: v.id, units: s.n, numerator: s.sumX, denominator: s.sumY, value: s.sumY > 0 ? s.sumX / s.sumY : null };
      }),
      comparisons,
      capping: capped.get(metric)?.view ?? null,
    };
  });
  return { metricResults, all };
}

/**
 * Each day's cumulative lift on the read's scale with its interval (unadjusted, without CUPED:
 * covariates are not kept per day). With method sequential these intervals are valid at every look.
 */
export function metricSeries(reads: MetricReads, days: readonly number[]) {
  const { metrics, variants, control, uncapped, quantiles, settings } = reads;
  return metrics.map((metric) => ({
    metric,
    points: days.flatMap((day) =>
      variants.map((v) => {
        if (isQuantileMetric(metric)) {
          const arm = quantiles(metric, v.id, day);
          const lift =
            v.id === control.id
              ? null
              : compareQuantileMetric(
                  metric,
                  { id: control.id, estimate: quantiles(metric, control.id, day) },
                  { id: v.id, estimate: arm },
                  settings,
                ).result;
          return {
            date: new Date(day * DAY_MS).toISOString().slice(0, 10),
            variantId: v.id,
            units: arm.units,
            value: arm.quantile,
            estimate: lift?.estimate ?? null,
            interval: lift?.interval ?? null,
          };
        }
        const s = uncapped(metric, v.id, day);
        const lift =
          v.id === control.id
            ? null
            : compare(metric, { id: control.id, sums: uncapped(metric, control.id, day) }, { id: v.id, sums: s }, settings).result;
        return {
          date: new Date(day * DAY_MS).toISOString().slice(0, 10),
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
