import { toIso, type Clock } from '../../common/clock.js';
import { ValidationError } from '../../common/errors.js';
import { ANALYSIS_DEFAULTS } from '../model/experiment-rules.js';
import { srmCheck, type RatioSums } from '../../stats/index.js';
import type { ExperimentRecord, ExperimentStore, VariantRecord } from '../model/experiment.store.js';
import type { ExposureStore } from '../model/exposure.store.js';
import { isQuantileMetric, quantileMetricDefinition, type AnalysisMetricName, type MetricName } from '../../vocabulary/index.js';
import { quantileEffect } from '../../stats/index.js';
import { analyseMetrics, metricSeries, readQuantiles, type MetricReads } from './results-metrics.js';
import { applyCorrection, type ReadSettings } from './results-analysis.js';
import { addSums, ZERO_SUMS } from '../model/metric-sums.js';
import { evaluateGuardrails, type GuardrailView } from './results-guardrails.js';
import { capMetrics, type CappedMetric } from './results-capping.js';
import { analyseSlices, type SlicesView } from './results-slices.js';
import { summarise } from './results-summary.js';
import { HOURLY_SERIES_BELOW_DAYS, type ResultsQuery, type ResultsView } from './results.schemas.js';
import { hourlySeries } from './results-hourly.js';
import type { CovariateSums, ResultsStore } from './results.store.js';
import type { InterleavedQueryStore } from '../model/interleaved-query.store.js';
import type { InterleavingResults } from '../ports/interleaving-results.js';

export interface SrmVerdict {
  pValue: number | null;
  passed: boolean;
  note: string | null;
  observed: Record<string, number>;
  expected: Record<string, number>;
}

/** Results of an experiment: O(units) aggregates from the read model, statistics from src/stats. */
export interface ResultsDependencies {
  store: ResultsStore;
  experiments: Pick<ExperimentStore, 'getPhase'>;
  exposures: Pick<ExposureStore, 'countExposures'>;
  /**
   * Attribution is caught up before a read, so the answer includes what has arrived. `stop` is a
   * background run's signal (the guardrail monitor's); requests pass none.
   */
  attribution: { catchUp(stop?: AbortSignal): Promise<number>; readonly freshAsOf: number | null };
  covariates: { drain(): Promise<number> };
  load: (id: string) => Promise<ExperimentRecord>;
  clock: Clock;
  /** Interleaving experiments' recorded lists (none by default). */
  lists?: Pick<InterleavedQueryStore, 'listForPhase'>;
  /** Interleaving experiments' analysis (interleaving-results/, wired by the module entry). */
  interleavingResults?: InterleavingResults;
}

const notWired: InterleavingResults = () => {
  throw new Error('interleaving results are not wired');
};

export class ResultsService {
  private readonly deps: Required<ResultsDependencies>;

  constructor({ lists = { listForPhase: async () => [] }, interleavingResults = notWired, ...rest }: ResultsDependencies) {
    this.deps = { ...rest, lists, interleavingResults };
  }

  /** What blocks shipping unless forced: the SRM check, or team balance for interleaving. */
  async trustCheck(e: ExperimentRecord): Promise<{ passed: boolean; pValue: number | null; check: string }> {
    if (e.configuration.type === 'interleaving') {
      await this.deps.attribution.catchUp();
      const lists = await this.deps.lists.listForPhase(e.id, e.phase);
      const { view } = this.deps.interleavingResults(e, e.configuration.variants, lists, e.configuration.analysis);
      const p = [view.balance.positionsPValue, view.balance.firstPicksPValue].filter((x): x is number => x !== null);
      return { passed: view.balance.passed, pValue: p.length ? Math.min(...p) : null, check: 'team-balance' };
    }
    return { ...(await this.srm(e)), check: 'sample-ratio' };
  }

  private async phaseVariants(e: ExperimentRecord, phase: number): Promise<VariantRecord[]> {
    if (phase === e.phase) return e.configuration.variants;
    return (await this.deps.experiments.getPhase(e.id, phase))?.configuration.variants ?? e.configuration.variants;
  }

  /** Pearson χ² of exposures against the phase's weights (blocks shipping when it fails). */
  async srm(e: ExperimentRecord, phase = e.phase): Promise<SrmVerdict> {
    const variants = await this.phaseVariants(e, phase);
    const counts = await this.deps.exposures.countExposures(e.id, phase);
    const observed = variants.map((v) => counts[v.id] ?? 0);
    const result = srmCheck(
      observed,
      variants.map((v) => v.weight),
    );
    return {
      pValue: result.pValue,
      passed: result.passed,
      note: result.note,
      observed: Object.fromEntries(variants.map((v, i) => [v.id, observed[i]!])),
      expected: Object.fromEntries(variants.map((v, i) => [v.id, result.expected[i] ?? 0])),
    };
  }

  /**
   * The experiment's guardrails in the current phase with the sequential (always-valid) method, whatever
   * analysis.method says: the monitor looks every few minutes, and only a confidence sequence stays
   * valid under that peeking.
   */
  async sequentialGuardrails(e: ExperimentRecord, stop?: AbortSignal): Promise<GuardrailView[]> {
    const guardrails = e.configuration.analysis.guardrails;
    if (guardrails.length === 0) return [];
    await this.deps.attribution.catchUp(stop);
    const variants = await this.phaseVariants(e, e.phase);
    const controlId = e.configuration.controlVariantId ?? variants[0]!.id;
    const metrics = guardrails.map((g) => g.metric);
    const ratio = metrics.filter((m): m is MetricName => !isQuantileMetric(m));
    const daily = ratio.length ? await this.deps.store.dailySums(e.id, e.phase, ratio) : [];
    const quantiles = await readQuantiles(this.deps.store, e.id, e.phase, metrics.filter(isQuantileMetric));
    const totals = (metric: MetricName, variantId: string): RatioSums =>
      daily.filter((d) => d.variantId === variantId).reduce((acc, d) => addSums(acc, d.sums[metric] ?? ZERO_SUMS), ZERO_SUMS);
    const treatmentIds = variants.filter((v) => v.id !== controlId).map((v) => v.id);
    return evaluateGuardrails(
      guardrails,
      { controlId, treatmentIds },
      totals,
      { ...e.configuration.analysis, method: 'sequential' },
      (m, c, v) => quantileEffect(quantiles(m, c), quantiles(m, v)),
    );
  }

  /** A 400 before any work (a refused read must not attribute or drain anything): the dimension must be kept. */
  private async checkDimension(e: ExperimentRecord, phase: number, dimension: string): Promise<void> {
    // Attribution keeps the sums the phase declared when it started (rows from before dimensions existed: the default).
    const started = await this.deps.experiments.getPhase(e.id, phase);
    const declared: string[] = started
      ? (started.configuration.analysis?.dimensions ?? [...ANALYSIS_DEFAULTS.dimensions])
      : e.configuration.analysis.dimensions;
    if (!declared.includes(dimension)) {
      throw ValidationError.field(
        '/dimension',
        `slice sums are kept only for analysis.dimensions of phase ${phase} (${declared.join(', ') || 'none'})`,
        'querystring',
      );
    }
  }

  /** Slices of one declared dimension, from the sums attribution keeps for it. */
  private async slices(
    e: ExperimentRecord,
    phase: number,
    dimension: string,
    context: {
      variants: VariantRecord[];
      controlId: string;
      metrics: AnalysisMetricName[];
      daily: { variantId: string; sums: Partial<Record<MetricName, RatioSums>> }[];
    },
    settings: ReadSettings,
  ): Promise<SlicesView> {
    const ratio = context.metrics.filter((m): m is MetricName => !isQuantileMetric(m));
    // Attribution keeps every catalogue metric's slice rows; with only quantile targets, ctr's rows give the units.
    const rows = await this.deps.store.sliceSums(e.id, phase, dimension, ratio.length ? ratio : ['ctr']);
    const sources = [...new Set(context.metrics.filter(isQuantileMetric).map((m) => quantileMetricDefinition(m).source))];
    const quantileRows = await this.deps.store.sliceQuantileSums(e.id, phase, dimension, sources);
    const unitsByVariant = Object.fromEntries(
      context.variants.map((v) => [
        v.id,
        context.daily.filter((d) => d.variantId === v.id).reduce((a, d) => a + (Object.values(d.sums)[0]?.n ?? 0), 0),
      ]),
    );
    return analyseSlices(dimension, rows, { ...context, unitsByVariant, quantileRows }, { ...settings, cuped: false });
  }

  /** What every results answer starts with, A/B or interleaving: which experiment, phase, read settings and freshness. */
  private header(e: ExperimentRecord, phase: number, settings: ReadSettings) {
    const fresh = this.deps.attribution.freshAsOf;
    return {
      experimentId: e.id,
      status: e.status,
      phase,
      computedAt: toIso(this.deps.clock.now()),
      dataFreshAsOf: fresh === null ? null : toIso(fresh),
      scale: settings.scale,
      method: settings.method,
      alpha: settings.alpha,
      correction: settings.correction,
    };
  }

  async results(experimentId: string, query: ResultsQuery = {}): Promise<ResultsView> {
    const e = await this.deps.load(experimentId);
    const phase = query.phase ?? e.phase;
    if (phase > e.phase) throw ValidationError.field('/phase', `the experiment is in phase ${e.phase}`, 'querystring');
    const settings: ReadSettings = {
      ...e.configuration.analysis,
      ...(query.scale ? { scale: query.scale } : {}),
      ...(query.method ? { method: query.method } : {}),
      ...(query.alpha ? { alpha: query.alpha } : {}),
      ...(query.correction ? { correction: query.correction } : {}),
    };
    if (query.dimension) await this.checkDimension(e, phase, query.dimension);
    await this.deps.attribution.catchUp();
    await this.deps.covariates.drain();
    const variants = await this.phaseVariants(e, phase);
    if (e.configuration.type === 'interleaving') {
      const srm = await this.srm(e, phase);
      const lists = await this.deps.lists.listForPhase(e.id, phase);
      const { view, summary, trustworthy } = this.deps.interleavingResults(e, variants, lists, settings);
      return {
        ...this.header(e, phase, settings),
        trustworthy,
        srm,
        metrics: [],
        guardrails: [],
        slices: null,
        interleaving: view,
        series: [],
        hourlySeries: null,
        summary,
      };
    }
    const metrics = e.configuration.targetMetrics;
    const controlId = e.configuration.controlVariantId ?? variants[0]!.id;
    const control = variants.find((v) => v.id === controlId) ?? variants[0]!;
    const guarded = settings.guardrails.map((g) => g.metric);
    const analysed = [...new Set([...metrics, ...guarded])];
    const ratioMetrics = analysed.filter((m): m is MetricName => !isQuantileMetric(m));
    // The variant-day rows also carry each day's units: with only quantile metrics, ctr's rows give them.
    const daily = await this.deps.store.dailySums(e.id, phase, ratioMetrics.length ? ratioMetrics : ['ctr']);
    const quantiles = await readQuantiles(this.deps.store, e.id, phase, analysed.filter(isQuantileMetric));
    const srm = await this.srm(e, phase);

    const uncapped = (metric: MetricName, variantId: string, upToDay = Infinity): RatioSums =>
      daily
        .filter((d) => d.variantId === variantId && d.day <= upToDay)
        .reduce((acc, d) => addSums(acc, d.sums[metric] ?? ZERO_SUMS), ZERO_SUMS);
    // Capping applies to the whole-phase totals (the per-day series stays uncapped); ?capping=off reads uncapped.
    const capped =
      query.capping === 'off'
        ? new Map<MetricName, CappedMetric>()
        : await capMetrics(
            this.deps.store,
            e.id,
            phase,
            ratioMetrics,
            variants.map((v) => v.id),
            settings.capping,
          );
    const totals = (metric: MetricName, variantId: string): RatioSums =>
      capped.get(metric)?.sums?.get(variantId) ?? uncapped(metric, variantId);
    const covariates = new Map<MetricName, CovariateSums[]>();
    if (settings.cuped) {
      const covered = new Set(await this.deps.store.metricsWithCovariates(e.id, phase));
      for (const m of ratioMetrics) if (covered.has(m)) covariates.set(m, await this.deps.store.covariateSums(e.id, phase, m));
    }
    // CUPED's covariate sums are over uncapped values: a capped metric is analysed without CUPED.
    const cov = (m: MetricName, id: string) => (capped.get(m)?.sums ? undefined : covariates.get(m)?.find((c) => c.variantId === id));

    const reads: MetricReads = { metrics, variants, control, totals, cov, quantiles, capped, settings, uncapped };
    const { metricResults, all } = analyseMetrics(reads);
    applyCorrection(all, settings);
    const slices = query.dimension
      ? await this.slices(e, phase, query.dimension, { variants, controlId: control.id, metrics, daily }, settings)
      : null;
    const treatmentIds = variants.filter((v) => v.id !== control.id).map((v) => v.id);
    const guardrails = evaluateGuardrails(
      settings.guardrails,
      { controlId: control.id, treatmentIds },
      (m, id) => totals(m, id),
      settings,
      (m, c, v) => quantileEffect(quantiles(m, c), quantiles(m, v)),
    );

    const days = [...new Set(daily.map((d) => d.day))].sort((a, b) => a - b);
    const series = metricSeries(reads, days);
    // A young phase also reads by exposure hour (O(units), bounded by the phase's first days).
    const young = days.length > 0 && days.length < HOURLY_SERIES_BELOW_DAYS;
    const hourly = young ? hourlySeries(reads, await this.deps.store.hourlySums(e.id, phase, ratioMetrics)) : null;
    return {
      ...this.header(e, phase, settings),
      trustworthy: srm.passed,
      srm,
      metrics: metricResults,
      guardrails,
      slices,
      series,
      hourlySeries: hourly,
      summary: summarise(all, settings, srm),
    };
  }
}
