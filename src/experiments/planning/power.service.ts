import type { Clock } from '../../common/clock.js';
import { DAY_MS } from '../../common/time.js';
import { ValidationError } from '../../common/errors.js';
import { armMoments, sampleSize, type RatioSums } from '../../stats/index.js';
import type { ExperimentRecord } from '../model/experiment.store.js';
import { METRIC_NAMES, type MetricName } from '../../vocabulary/index.js';
import { addSums, ZERO_SUMS } from '../model/metric-sums.js';
import type { PowerBody } from './planning.schemas.js';
import type { ExperimentDailySums, PlanningStore } from './planning.store.js';

export const PLANNING_WINDOW_DAYS = 14;

/** Which bound the plan is: what a reader needs to know about how conservative it is. */
function planBound(correction: string, comparisons: number, method: string): string {
  const family =
    comparisons <= 1 || correction === 'none'
      ? 'one comparison at α'
      : `each of ${comparisons} comparisons (target metrics × treatments) at α/${comparisons}: the Bonferroni bound, exact for Bonferroni and for Holm's least favourable case (one true effect), conservative for Benjamini–Hochberg`;
  const sequential = method === 'sequential' ? '; sequential: power at the last look with the confidence sequence’s width' : '';
  return family + sequential;
}

export interface PowerDependencies {
  planning: PlanningStore;
  /** A running experiment's per-day sums (the results store). */
  results: ExperimentDailySums;
  load: (id: string) => Promise<ExperimentRecord>;
  clock: Clock;
}

/** Sample size and duration, from the request, from a running experiment, or from recent feedback. */
export class PowerService {
  private readonly planning: PlanningStore;
  private readonly results: ExperimentDailySums;
  private readonly load: (id: string) => Promise<ExperimentRecord>;
  private readonly clock: Clock;

  constructor(deps: PowerDependencies) {
    this.planning = deps.planning;
    this.results = deps.results;
    this.load = deps.load;
    this.clock = deps.clock;
  }

  async plan(body: PowerBody) {
    if (!(METRIC_NAMES as readonly string[]).includes(body.metric)) {
      throw ValidationError.field('/metric', `is not a metric; use one of ${METRIC_NAMES.join(', ')}`);
    }
    const metric = body.metric as MetricName;
    const sources: Record<string, string> = {};
    let observed: RatioSums | undefined;
    let variants = body.variants;
    let traffic = body.trafficAllocation;
    let daily = body.dailySessions;
    // The analysis the plan is for: the request's, else the experiment's, else the service defaults.
    let analysis = {
      correction: body.correction,
      method: body.method,
      targetMetrics: body.targetMetrics,
      tuning: undefined as number | undefined,
      alpha: body.alpha,
    };

    if (body.experimentId) {
      const e = await this.load(body.experimentId);
      const control = e.configuration.controlVariantId ?? e.configuration.variants[0]!.id;
      const rows = await this.results.dailySums(e.id, e.phase, [metric]);
      observed = rows.filter((r) => r.variantId === control).reduce((acc, r) => addSums(acc, r.sums[metric] ?? ZERO_SUMS), ZERO_SUMS);
      variants ??= e.configuration.variants.length;
      const a = e.configuration.analysis;
      analysis = {
        correction: analysis.correction ?? a.correction,
        method: analysis.method ?? a.method,
        targetMetrics: analysis.targetMetrics ?? e.configuration.targetMetrics.length,
        tuning: a.sequentialTuning,
        alpha: analysis.alpha ?? a.alpha,
      };
      traffic ??= e.configuration.trafficAllocation;
      if (daily === undefined && rows.length > 0) {
        const units = rows.reduce((acc, r) => acc + (r.sums[metric]?.n ?? 0), 0);
        const days = Math.max(1, Math.max(...rows.map((r) => r.day)) - Math.min(...rows.map((r) => r.day)) + 1);
        // Exposed units per day already reflect the allocation; undo it for "sessions per day".
        daily = units / days / (traffic ?? 1);
        sources.dailySessions = 'experiment';
      }
      sources.observed = 'experiment';
    } else if (body.baseline === undefined || body.dailySessions === undefined || body.stdDev === undefined) {
      const recent = await this.planning.recentSessionSums(metric, this.clock.now() - PLANNING_WINDOW_DAYS * DAY_MS);
      if (recent.sums.n > 0) {
        observed = recent.sums;
        sources.observed = 'recent_feedback';
        if (daily === undefined && recent.firstAt !== null && recent.lastAt !== null) {
          daily = recent.sums.n / Math.max(1, (recent.lastAt - recent.firstAt) / DAY_MS);
          sources.dailySessions = 'recent_feedback';
        }
      }
    }
    const moments = observed ? armMoments(observed) : undefined;
    const baseline = body.baseline ?? moments?.mean ?? undefined;
    if (baseline === undefined || baseline === null) {
      throw ValidationError.field('/baseline', 'is required: there is no recent feedback (or experiment data) to derive it from');
    }
    sources.baseline = body.baseline !== undefined ? 'request' : sources.observed!;
    let stdDev = body.stdDev;
    if (stdDev === undefined && moments?.variance !== null && moments?.variance !== undefined && body.baseline === undefined) {
      stdDev = Math.sqrt(moments.variance);
      sources.stdDev = sources.observed!;
    }
    if (stdDev === undefined) {
      if (!(baseline > 0 && baseline < 1)) throw ValidationError.field('/stdDev', 'is required for a metric that is not a proportion');
      sources.stdDev = 'derived: √(p(1 − p))';
    } else sources.stdDev ??= 'request';
    if (body.dailySessions !== undefined) sources.dailySessions = 'request';
    const input = {
      baselineMean: baseline,
      ...(stdDev !== undefined ? { stdDev } : {}),
      mde: body.mde,
      alpha: analysis.alpha ?? 0.05,
      power: body.power ?? 0.8,
      variants: variants ?? 2,
      trafficAllocation: traffic ?? 1,
      ...(daily !== undefined ? { dailySessions: daily } : {}),
      correction: analysis.correction ?? 'holm',
      method: analysis.method ?? 'fixed',
      targetMetrics: analysis.targetMetrics ?? 1,
      ...(analysis.tuning !== undefined ? { tuningParameter: analysis.tuning } : {}),
    };
    const result = sampleSize(input);
    if (result.reason && result.sessionsPerVariant === null)
      throw ValidationError.field('/', `cannot size this experiment: ${result.reason}`);
    return {
      metric,
      baseline,
      stdDev: result.stdDev ?? stdDev ?? 0,
      mde: body.mde,
      absoluteEffect: result.absoluteEffect,
      alpha: input.alpha,
      power: input.power,
      variants: input.variants,
      trafficAllocation: input.trafficAllocation,
      dailySessions: daily ?? null,
      correction: input.correction,
      method: result.method,
      comparisons: result.comparisons,
      plannedAlpha: result.plannedAlpha,
      bound: planBound(input.correction, result.comparisons, result.method),
      sessionsPerVariant: result.sessionsPerVariant,
      totalSessions: result.totalSessions,
      days: result.days,
      sources,
    };
  }
}
