import { srmCheck, type RatioSums } from '../../stats/index.js';
import type { VariantRecord } from '../model/experiment.store.js';
import {
  isQuantileMetric,
  metricDirection,
  quantileMetricDefinition,
  type AnalysisMetricName,
  type MetricName,
} from '../../vocabulary/index.js';
import { armQuantile, compareQuantileMetric, sumGrids } from './results-quantiles.js';
import { applyCorrection, compare, type Analysed, type ComparisonResult, type ReadSettings } from './results-analysis.js';
import { addSums, ZERO_SUMS } from '../model/metric-sums.js';
import type { SliceMetricSums, SliceQuantileSums } from './results.store.js';

/** Slices reported one by one; the smaller ones are merged into OTHER_SLICE. */
export const MAX_SLICES = 20;
export const OTHER_SLICE = '(other)';

export interface SliceValueView {
  value: string;
  units: number;
  srm: { pValue: number | null; passed: boolean; note: string | null; observed: Record<string, number> };
  metrics: {
    metric: AnalysisMetricName;
    direction: string;
    variants: { variantId: string; units: number; value: number | null }[];
    comparisons: ComparisonResult[];
  }[];
}

export interface SlicesView {
  dimension: string;
  exploratory: true;
  note: string;
  /** Units exposed whose session has no attributed feedback yet, so no slice value. */
  unitsWithoutValue: Record<string, number>;
  values: SliceValueView[];
}

/**
 * The analysis per slice value of one dimension: top MAX_SLICES values by units, the rest merged as
 * "(other)", each with its own sample-ratio check, every comparison corrected together across slices ×
 * metrics × treatments (and apart from the main results). Without CUPED: covariates are not kept per slice.
 */
export function analyseSlices(
  dimension: string,
  rows: readonly SliceMetricSums[],
  context: {
    variants: readonly VariantRecord[];
    controlId: string;
    metrics: readonly AnalysisMetricName[];
    unitsByVariant: Record<string, number>;
    /** Quantile metrics' grid sums per slice value, variant and source. */
    quantileRows?: readonly SliceQuantileSums[];
  },
  settings: ReadSettings,
): SlicesView {
  const byValue = new Map<string, SliceMetricSums[]>();
  for (const r of rows) byValue.set(r.value, [...(byValue.get(r.value) ?? []), r]);
  const unitsOf = (list: readonly SliceMetricSums[]) => list.reduce((a, r) => a + r.units, 0);
  const ranked = [...byValue.entries()].sort((a, b) => unitsOf(b[1]) - unitsOf(a[1]) || (a[0] < b[0] ? -1 : 1));
  const kept = ranked.slice(0, MAX_SLICES);
  const rest = ranked.slice(MAX_SLICES).flatMap(([, list]) => list);
  if (rest.length > 0) kept.push([OTHER_SLICE, rest]);

  const all: Analysed[] = [];
  const sliced = new Map<string, number>();
  const values = kept.map(([value, list]): SliceValueView => {
    const sums = (metric: MetricName, variantId: string): RatioSums =>
      list.filter((r) => r.variantId === variantId).reduce((acc, r) => addSums(acc, r.sums[metric] ?? ZERO_SUMS), ZERO_SUMS);
    const observed = context.variants.map((v) => list.filter((r) => r.variantId === v.id).reduce((a, r) => a + r.units, 0));
    context.variants.forEach((v, i) => sliced.set(v.id, (sliced.get(v.id) ?? 0) + observed[i]!));
    const srm = srmCheck(
      observed,
      context.variants.map((v) => v.weight),
    );
    const metrics = context.metrics.map((metric) => {
      if (!isQuantileMetric(metric)) return ratioMetric(metric);
      const source = quantileMetricDefinition(metric).source;
      const values = new Set(list.map((r) => r.value));
      const estimate = (variantId: string) =>
        armQuantile(
          metric,
          sumGrids(
            (context.quantileRows ?? [])
              .filter((r) => values.has(r.value) && r.variantId === variantId && r.source === source)
              .map((r) => r.sums),
          ),
        );
      return {
        metric,
        direction: metricDirection(metric),
        variants: context.variants.map((v) => {
          const e = estimate(v.id);
          return { variantId: v.id, units: e.units, value: e.quantile };
        }),
        comparisons: context.variants
          .filter((v) => v.id !== context.controlId)
          .map((v) => {
            const { result, test } = compareQuantileMetric(
              metric,
              { id: context.controlId, estimate: estimate(context.controlId) },
              { id: v.id, estimate: estimate(v.id) },
              settings,
            );
            all.push({ metric, variantName: `${v.name} (${dimension} = ${value})`, result, test });
            return result;
          }),
      };
    });
    function ratioMetric(metric: MetricName) {
      return {
        metric,
        direction: metricDirection(metric),
        variants: context.variants.map((v) => {
          const s = sums(metric, v.id);
          return { variantId: v.id, units: s.n, value: s.sumY > 0 ? s.sumX / s.sumY : null };
        }),
        comparisons: context.variants
          .filter((v) => v.id !== context.controlId)
          .map((v) => {
            const { result, test } = compare(
              metric,
              { id: context.controlId, sums: sums(metric, context.controlId) },
              { id: v.id, sums: sums(metric, v.id) },
              settings,
            );
            all.push({ metric, variantName: `${v.name} (${dimension} = ${value})`, result, test });
            return result;
          }),
      };
    }
    return {
      value,
      units: unitsOf(list),
      srm: {
        pValue: srm.pValue,
        passed: srm.passed,
        note: srm.note,
        observed: Object.fromEntries(context.variants.map((v, i) => [v.id, observed[i]!])),
      },
      metrics,
    };
  });
  applyCorrection(all, settings);
  return {
    dimension,
    exploratory: true,
    note: `Exploratory: ${values.length} slices of ${dimension}, corrected (${settings.correction}) across slices × metrics × treatments; a slice's own sample-ratio check can fail where the whole experiment's passes. ${
      dimension.startsWith('attr:')
        ? "A session's value is the assign attribute sent with its first exposure; it is counted once its first feedback item is attributed."
        : "A session's value is the one on its first attributed feedback item."
    }`,
    unitsWithoutValue: Object.fromEntries(
      context.variants.map((v) => [v.id, Math.max(0, (context.unitsByVariant[v.id] ?? 0) - (sliced.get(v.id) ?? 0))]),
    ),
    values,
  };
}
