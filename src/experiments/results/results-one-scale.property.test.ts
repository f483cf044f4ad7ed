/**
 * The one-scale property through the results computation (ResultsService over stub stores, fast-check,
 * fixed seed): for many random experiments (2–4 variants, up to 3 target metrics among a proportion of
 * sessions, ratio and mean metrics and a per-item quantile (grid sums), small and large arms, zero-conversion arms, 1–3 exposure days), on
 * both scales and both methods, every comparison satisfies
 *   uncorrected: significant ⇔ interval excludes 0 ⇔ adjustedPValue (= pValue) < α;
 *   corrected:   significant ⇔ adjustedInterval excludes 0 ⇔ adjustedPValue < α;
 * the legacy ci/relativeCi carry only the chosen scale's interval, and the Bayesian view is on it too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantileGridSums, type RatioSums } from '../../stats/index.js';
import type { AnalysisMetricName } from '../../vocabulary/index.js';
import { QUANTILE_GRID } from '../model/stored-quantile-grid.js';
import type { AnalysisSettings, ExperimentRecord } from '../model/experiment.store.js';
import { ResultsService } from './results.service.js';
import type { DailyQuantileSums, ResultsStore } from './results.store.js';
import type { DailyMetricSums } from '../model/metric-sums.js';

const SEED = 13;
const RUNS = 2000;
const METRICS: AnalysisMetricName[] = ['conversion_rate', 'ctr', 'dwell_time', 'abandonment_rate', 'time_to_click_p50'];

/**
 * One arm's per-session values for a metric, drawn from a few integers (so sums are exact); for the quantile
 * metric, the session's items (ms) as x, y unused.
 */
const session = (metric: AnalysisMetricName): fc.Arbitrary<{ x: number; y: number; items?: number[] }> =>
  metric === 'time_to_click_p50'
    ? fc.array(fc.integer({ min: 50, max: 5000 }), { minLength: 1, maxLength: 4 }).map((items) => ({ x: 0, y: 0, items }))
    : metric === 'conversion_rate'
      ? fc.record({ x: fc.integer({ min: 0, max: 1 }), y: fc.constant(1) })
      : metric === 'dwell_time'
        ? fc.integer({ min: 0, max: 3 }).chain((y) => fc.record({ x: fc.integer({ min: 0, max: 60 * y }), y: fc.constant(y) }))
        : fc.integer({ min: 1, max: 5 }).chain((y) => fc.record({ x: fc.integer({ min: 0, max: y }), y: fc.constant(y) }));

const sumsOf = (rows: { x: number; y: number }[]): RatioSums => ({
  n: rows.length,
  sumX: rows.reduce((a, r) => a + r.x, 0),
  sumY: rows.reduce((a, r) => a + r.y, 0),
  sumX2: rows.reduce((a, r) => a + r.x * r.x, 0),
  sumY2: rows.reduce((a, r) => a + r.y * r.y, 0),
  sumXY: rows.reduce((a, r) => a + r.x * r.y, 0),
});

/** Per variant and day, per metric: sums of 0–80 sessions (a third of arms are tiny). */
const experiment = fc
  .record({
    variants: fc.integer({ min: 2, max: 4 }),
    days: fc.integer({ min: 1, max: 3 }),
    metrics: fc.subarray(METRICS, { minLength: 1, maxLength: 3 }),
    /** Per-variant rate shifts, so some comparisons are clearly significant. */
    shift: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 4, maxLength: 4 }),
  })
  .chain(({ variants, days, metrics, shift }) =>
    fc
      .array(
        fc.array(fc.record(Object.fromEntries(metrics.map((m) => [m, fc.array(session(m), { minLength: 0, maxLength: 80 })]))), {
          minLength: days,
          maxLength: days,
        }),
        { minLength: variants, maxLength: variants },
      )
      .map((cells) => ({ metrics, days, cells, shift })),
  );

const settings = fc.record({
  scale: fc.constantFrom<AnalysisSettings['scale']>('relative', 'absolute'),
  method: fc.constantFrom<AnalysisSettings['method']>('fixed', 'sequential'),
  alpha: fc.constantFrom(0.01, 0.05, 0.1, 0.2),
  correction: fc.constantFrom<AnalysisSettings['correction']>('none', 'holm', 'benjamini-hochberg'),
  bayesianPrior: fc.constantFrom<AnalysisSettings['bayesianPrior']>('improper', 'proper'),
});

type Experiment = typeof experiment extends fc.Arbitrary<infer T> ? T : never;

function serviceFor(e: Experiment, analysis: AnalysisSettings): ResultsService {
  const variantIds = e.cells.map((_, i) => `v${i}`);
  const record: ExperimentRecord = {
    id: 'e1',
    name: 'property',
    description: null,
    status: 'running',
    startDate: 0,
    endDate: null,
    phase: 0,
    conclusion: null,
    createdAt: 0,
    updatedAt: 0,
    configuration: {
      variants: variantIds.map((id) => ({ id, name: id, weight: 1 / variantIds.length, config: {} })),
      trafficAllocation: 1,
      targetMetrics: e.metrics,
      analysis,
    },
  };
  // Sessions thinned by the variant's shift: a treatment with fewer successes in its x keeps y.
  const ratio = e.metrics.filter((m) => m !== 'time_to_click_p50');
  const daily: DailyMetricSums[] = e.cells.flatMap((days, v) =>
    days.map((cell, day) => ({
      variantId: `v${v}`,
      day,
      sums: Object.fromEntries(
        (ratio.length ? ratio : ['ctr']).map((m) => {
          const rows = (cell[m] ?? []).map((r, i) => ({ ...r, x: e.shift[v]! < 0 && i % 3 === 0 ? 0 : r.x }));
          return [m, sumsOf(rows)];
        }),
      ),
    })),
  );
  // The quantile metric's items scaled by the variant's shift, as the grid sums attribution keeps.
  const quantiles: DailyQuantileSums[] = e.metrics.includes('time_to_click_p50')
    ? e.cells.flatMap((days, v) =>
        days.map((cell, day) => {
          const units = (cell.time_to_click_p50 ?? []).map((r) => r.items!.map((x) => Math.round(x * (1 + e.shift[v]!))));
          const { thresholds: _grid, ...sums } = quantileGridSums(units, QUANTILE_GRID);
          return {
            variantId: `v${v}`,
            day,
            source: 'time_to_click' as const,
            sums: { ...sums, below: [...sums.below], belowSquared: [...sums.belowSquared], belowTimesItems: [...sums.belowTimesItems] },
          };
        }),
      )
    : [];
  const store: ResultsStore = {
    dailySums: async () => daily,
    covariateSums: async () => [],
    metricsWithCovariates: async () => [],
    sliceSums: async () => [],
    dailyQuantileSums: async () => quantiles,
    sliceQuantileSums: async () => [],
    unitValues: async () => [],
    // Each day's units as exposed in that day's first hour: the hourly series must end where the daily one does.
    hourlySums: async () => daily.map((d) => ({ variantId: d.variantId, hour: d.day * 24, sums: d.sums })),
  };
  const units = Object.fromEntries(variantIds.map((id, v) => [id, e.cells[v]!.reduce((a, c) => a + (c[e.metrics[0]!]?.length ?? 0), 0)]));
  return new ResultsService({
    store,
    experiments: { getPhase: async () => undefined },
    exposures: { countExposures: async () => units },
    attribution: { catchUp: async () => 0, freshAsOf: null },
    covariates: { drain: async () => 0 },
    load: async () => record,
    clock: { now: () => 0 },
  });
}

const excludesZero = (i: number[] | null) => i !== null && (i[0]! > 0 || i[1]! < 0);

describe('results: one scale for every number (property, through ResultsService)', () => {
  it(`significant ⇔ interval excludes 0 ⇔ adjusted p < α, both scales and methods (${RUNS} experiments)`, async () => {
    let tested = 0;
    let significant = 0;
    const quantile = { tested: 0, significant: 0 };
    let hourlyChecked = 0;
    await fc.assert(
      fc.asyncProperty(experiment, settings, async (e, s) => {
        const analysis: AnalysisSettings = { ...s, sequentialTuning: 5000, mde: 0.05, cuped: false, guardrails: [], dimensions: [] };
        const view = await serviceFor(e, analysis).results('e1');
        expect(view.scale).toBe(s.scale);
        // A phase younger than three days also reads by hour; its last point is the daily series' last point.
        const young = new Set(e.cells.flatMap((days) => days.map((_, day) => day))).size < 3;
        expect(view.hourlySeries === null).toBe(!young);
        for (const h of view.hourlySeries ?? []) {
          const last = (points: { variantId: string }[]) => points.filter((p) => p.variantId === 'v1').at(-1);
          const daily = view.series.find((d) => d.metric === h.metric)!;
          const { start: _start, ...byHour } = last(h.points) as (typeof h.points)[number];
          const { date: _date, ...byDay } = last(daily.points) as (typeof daily.points)[number];
          expect(byHour).toEqual(byDay);
          hourlyChecked += 1;
        }
        for (const m of view.metrics) {
          for (const c of m.comparisons) {
            expect(c.scale).toBe(s.scale);
            expect(c.otherScale.scale).toBe(s.scale === 'relative' ? 'absolute' : 'relative');
            expect(c.interval).toEqual(s.scale === 'relative' ? c.relativeCi : c.ci);
            expect(s.scale === 'relative' ? c.ci : c.relativeCi).toBeNull();
            if (c.pValue === null) {
              expect(c.interval).toBeNull();
              expect(c.significant).toBe(false);
              continue;
            }
            tested += 1;
            if (c.significant) significant += 1;
            if (m.metric === 'time_to_click_p50') {
              quantile.tested += 1;
              if (c.significant) quantile.significant += 1;
            }
            const verdict = c.adjustedPValue! < s.alpha;
            expect(c.significant).toBe(verdict);
            expect(excludesZero(c.adjustedInterval as number[] | null)).toBe(verdict);
            if (s.correction === 'none') {
              expect(c.adjustedPValue).toBe(c.pValue);
              expect(excludesZero(c.interval as number[] | null)).toBe(verdict);
            }
            expect(excludesZero(c.interval as number[] | null)).toBe(c.pValue < s.alpha);
            const good = m.direction === 'higher' ? c.estimate! > 0 : c.estimate! < 0;
            expect(c.improved).toBe(c.significant && good);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The property must not hold vacuously: many comparisons were tested, some significant, some not.
    expect(tested).toBeGreaterThan(RUNS);
    expect(significant).toBeGreaterThan(RUNS / 20);
    expect(tested - significant).toBeGreaterThan(RUNS / 2);
    expect(quantile.tested).toBeGreaterThan(RUNS / 4);
    expect(quantile.significant).toBeGreaterThan(RUNS / 100);
    expect(hourlyChecked).toBeGreaterThan(RUNS / 10);
    console.log(
      `one-scale property through ResultsService: ${tested} tested comparisons, ${significant} significant ` +
        `(quantile: ${quantile.tested} tested, ${quantile.significant} significant)`,
    );
  }, 120_000);
});
