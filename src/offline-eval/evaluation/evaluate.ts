import { intervalMethod, percentileInterval } from '../log/bootstrap.js';
import { encodeSearches, MAX_RANKS, type EncodedSearches } from '../log/encode.js';
import { fitPluginModel, modelTopClick, pluginModel, type PluginModel } from '../estimators/click-model-plugin.js';
import { observedMetrics, parseMetric, type ParsedMetric } from '../estimators/metrics.js';
import { estimatePairs, pairEstimateInputs, satisfiedShares, setPropensities } from '../estimators/pair-estimates.js';
import type { CandidateEvaluation, EvaluationInput, Interval, MetricEvaluation } from '../types.js';
import { ESTIMATORS } from '../types.js';
import { expectedInterleaving } from './expected-interleaving.js';
import { propensitySource } from './propensity-source.js';
import { buildLists, coverageCounts, type EvaluationLists } from './lists.js';
import { loggedPredictions, modelPredictions, scoreDirect, scoreDoublyRobust, scorePlugIn, scratch } from './scoring.js';

/**
 * Predicts a candidate ranking's online metrics from logged searches (docs/offline-evaluation.md):
 * per-pair estimates of γ(q, d) from the logs, plugged into the position-based model for the
 * candidate's and the baseline's lists, with a Poisson bootstrap over sessions for paired
 * intervals on both and on their difference. The direct method and dr fit their click model here
 * from `searches` when `clickModels` does not bring one.
 */
export function evaluateCandidate(input: EvaluationInput): CandidateEvaluation {
  const depth = input.depth ?? 10;
  const replicates = input.bootstrap ?? 200;
  const seed = input.seed ?? 1;
  const minCoverage = input.minCoverage ?? 0.5;
  validate(input, depth, replicates, minCoverage);
  const metrics = input.metrics.map((m) => parseMetric(m, depth));
  const limit = Math.max(depth, ...metrics.map((m) => m.k));
  const evaluatedIndex: number[] = [];
  input.searches.forEach((s, i) => input.candidate.has(s.queryHash) && evaluatedIndex.push(i));
  const evaluated = evaluatedIndex.map((i) => input.searches[i] as (typeof input.searches)[number]);
  const log = encodeSearches(evaluated, MAX_RANKS);
  const lists = buildLists(log, input.candidate, input.baseline, limit);
  const frequency = queryFrequency(log);

  const coverageAt = (k: number): number => {
    const { covered, shown } = coverageCounts(lists.candidate, k);
    let hit = 0;
    let all = 0;
    for (let q = 0; q < frequency.length; q += 1) {
      hit += (frequency[q] as number) * (covered[q] as number);
      all += (frequency[q] as number) * (shown[q] as number);
    }
    return all > 0 ? hit / all : 0;
  };
  const coverage = coverageAt(depth);
  const observedBaseline = observed(log, metrics, depth, input.metrics);
  const base = {
    estimator: input.estimator,
    searches: log.searches,
    queries: log.queries.length,
    sessions: log.sessions,
    coverage,
    observedBaseline,
    intervalMethod: intervalMethod(replicates) + (Array.isArray(input.propensities) ? '' : ', propensities re-harvested per replicate'),
    depth,
    minCoverage,
  };
  if (!(coverage >= minCoverage) || log.searches === 0) {
    return { ...base, enoughCoverage: false, metrics: [], interleaving: { wins: 0, losses: 0, ties: 0, shareWon: 0.5 } };
  }

  const source = propensitySource(input, log, evaluatedIndex);
  const propensity = Float64Array.from(source.point);
  const scorer = prepareScorer(input, log, lists, metrics, depth, limit, propensity);

  const M = metrics.length;
  const candidateValues = new Float64Array(lists.candidate.count * M);
  const baselineValues = new Float64Array(lists.baseline.count * M);
  const weights = new Uint8Array(log.sessions);
  const queryWeight = new Float64Array(lists.candidate.count);
  const listWeight = new Float64Array(lists.baseline.count);
  const draws = metrics.map(() => ({
    candidate: [] as number[],
    baseline: [] as number[],
    difference: [] as number[],
    relative: [] as number[],
  }));
  const point = metrics.map(() => ({ candidate: 0, baseline: 0 }));
  for (let b = 0; b <= replicates; b += 1) {
    if (source.draw(b, seed, weights, propensity)) scorer.setPropensities();
    queryWeight.fill(0);
    listWeight.fill(0);
    let total = 0;
    for (let s = 0; s < log.searches; s += 1) {
      const w = weights[log.searchSession[s] as number] as number;
      const q = log.searchQuery[s] as number;
      const l = lists.searchBaseline[s] as number;
      queryWeight[q] = (queryWeight[q] as number) + w;
      listWeight[l] = (listWeight[l] as number) + w;
      total += w;
    }
    if (total === 0) continue;
    scorer(weights, candidateValues, baselineValues);
    for (let m = 0; m < M; m += 1) {
      let c = 0;
      let a = 0;
      for (let l = 0; l < lists.candidate.count; l += 1) c += (queryWeight[l] as number) * (candidateValues[l * M + m] as number);
      for (let l = 0; l < lists.baseline.count; l += 1) a += (listWeight[l] as number) * (baselineValues[l * M + m] as number);
      c /= total;
      a /= total;
      if (b === 0) point[m] = { candidate: c, baseline: a };
      else {
        const d = draws[m] as (typeof draws)[number];
        d.candidate.push(c);
        d.baseline.push(a);
        d.difference.push(c - a);
        d.relative.push(a !== 0 ? (c - a) / a : 0);
      }
    }
  }

  propensity.set(source.point);
  // Metrics reading the same top k (mrr, clicks, ctr@depth …) share one sweep.
  const essByK = new Map<number, number>();
  const ess = (k: number): number => {
    let value = essByK.get(k);
    if (value === undefined) essByK.set(k, (value = kishEffectiveSampleSize(log, lists, frequency, propensity, k)));
    return value;
  };
  const interval = (estimate: number, values: number[]): Interval => ({ estimate, interval: percentileInterval(values, estimate) });
  const results: MetricEvaluation[] = metrics.map((parsed, m) => {
    const { candidate, baseline } = point[m] as { candidate: number; baseline: number };
    const d = draws[m] as (typeof draws)[number];
    return {
      metric: parsed.metric,
      candidate: interval(candidate, d.candidate),
      baseline: interval(baseline, d.baseline),
      difference: interval(candidate - baseline, d.difference),
      relativeDifference: interval(baseline !== 0 ? (candidate - baseline) / baseline : 0, d.relative),
      effectiveSampleSize: ess(parsed.k),
      coverage: parsed.k === depth ? coverage : coverageAt(parsed.k),
    };
  });
  const interleaving = expectedInterleaving(log, lists, frequency, scorer.topClick, propensity, depth);
  const harvested = source.harvested?.();
  return { ...base, enoughCoverage: true, metrics: results, interleaving, ...(harvested ? { propensities: harvested } : {}) };
}

type Scorer = ((weights: Uint8Array, candidate: Float64Array, baseline: Float64Array) => void) & {
  /** After the shared `propensity` array changed (a re-harvested replicate). */
  setPropensities: () => void;
  /** γ̂ on the position-1 scale per log pair, at the point estimate (after replicate 0 ran). */
  topClick: (pair: number) => number;
};

function prepareScorer(
  input: EvaluationInput,
  log: EncodedSearches,
  lists: EvaluationLists,
  metrics: readonly ParsedMetric[],
  depth: number,
  limit: number,
  propensity: Float64Array,
): Scorer {
  const work = scratch(limit);
  const share = satisfiedShares(log);
  const model = (algorithm: 'pbm' | 'dbn'): PluginModel =>
    pluginModel(
      log,
      input.clickModels?.[algorithm] ??
        fitPluginModel(
          input.searches.filter((s) => input.candidate.has(s.queryHash)),
          algorithm,
          limit,
        ),
    );
  if (input.estimator === 'dm-pbm' || input.estimator === 'dm-dbn') {
    const fitted = model(input.estimator === 'dm-pbm' ? 'pbm' : 'dbn');
    const candidate = new Float64Array(lists.candidate.count * metrics.length);
    const baseline = new Float64Array(lists.baseline.count * metrics.length);
    scoreDirect(lists.candidate, modelPredictions(lists.candidate, fitted), share, metrics, depth, work, candidate);
    scoreDirect(lists.baseline, modelPredictions(lists.baseline, fitted), share, metrics, depth, work, baseline);
    const scorer = (_w: Uint8Array, c: Float64Array, b: Float64Array): void => {
      c.set(candidate);
      b.set(baseline);
    };
    return Object.assign(scorer, { topClick: (pair: number) => modelTopClick(fitted, pair), setPropensities: () => {} });
  }
  const relevant = relevantPairs(log, lists);
  const click = new Float64Array(log.pairDoc.length);
  const sat = new Float64Array(log.pairDoc.length);
  // The full-sample estimates, set by replicate 0 (which always runs first).
  let point: { click: Float64Array; sat: Float64Array } | undefined;
  const dbn = input.estimator === 'dr' ? model('dbn') : undefined;
  const inputs = pairEstimateInputs(
    log,
    input.estimator === 'dr' ? 'dr' : input.estimator,
    relevant,
    propensity,
    dbn && { predicted: loggedPredictions(log, dbn), satisfiedShare: share },
    metrics.some((m) => m.kind === 'satisfied'),
  );
  const predictions = dbn && { candidate: modelPredictions(lists.candidate, dbn), baseline: modelPredictions(lists.baseline, dbn) };
  const scorer = (w: Uint8Array, c: Float64Array, b: Float64Array): void => {
    estimatePairs(inputs, w, click, sat, point);
    if (point === undefined) point = { click: Float64Array.from(click), sat: Float64Array.from(sat) };
    if (predictions === undefined) {
      scorePlugIn(lists.candidate, metrics, depth, propensity, click, sat, work, c);
      scorePlugIn(lists.baseline, metrics, depth, propensity, click, sat, work, b);
    } else {
      scoreDoublyRobust(lists.candidate, predictions.candidate, share, metrics, depth, propensity, click, sat, work, c);
      scoreDoublyRobust(lists.baseline, predictions.baseline, share, metrics, depth, propensity, click, sat, work, b);
    }
  };
  // γ̂ on the rank-1 scale: dr's is the DBN's click at rank 1 plus the residual.
  const topClick = (pair: number): number =>
    pair < 0 || point === undefined ? 0 : (point.click[pair] as number) + (dbn === undefined ? 0 : modelTopClick(dbn, pair));
  return Object.assign(scorer, { topClick, setPropensities: () => setPropensities(inputs, propensity) });
}

function relevantPairs(log: EncodedSearches, lists: EvaluationLists): Int32Array {
  const flag = new Uint8Array(log.pairDoc.length);
  for (const p of lists.candidate.pair) if (p >= 0) flag[p] = 1;
  for (const p of lists.baseline.pair) if (p >= 0) flag[p] = 1;
  const out: number[] = [];
  for (let p = 0; p < flag.length; p += 1) if (flag[p] === 1) out.push(p);
  return Int32Array.from(out);
}

function queryFrequency(log: EncodedSearches): Float64Array {
  const frequency = new Float64Array(log.queries.length);
  for (let s = 0; s < log.searches; s += 1) {
    const q = log.searchQuery[s] as number;
    frequency[q] = (frequency[q] as number) + 1;
  }
  return frequency;
}

function observed(log: EncodedSearches, metrics: readonly ParsedMetric[], depth: number, names: readonly string[]): Record<string, number> {
  const sums = metrics.map(() => 0);
  for (let s = 0; s < log.searches; s += 1) {
    const values = observedMetrics(metrics, depth, log.itemClick, log.itemSat, log.itemStart[s] as number, log.itemStart[s + 1] as number);
    for (let m = 0; m < metrics.length; m += 1) sums[m] = (sums[m] as number) + (values[m] as number);
  }
  return Object.fromEntries(names.map((name, m) => [name, log.searches > 0 ? (sums[m] as number) / log.searches : 0]));
}

/**
 * Kish's effective sample size (Σw)² / Σw² of the weights the linear estimate puts on logged
 * impressions: an impression of d at rank k counts N_q / n_qd · p_r / p_k toward the candidate's
 * clicks, where the candidate shows d at rank r ≤ k_metric. The same figure for every estimator:
 * it measures how much of the log speaks about the candidate's top k.
 */
function kishEffectiveSampleSize(
  log: EncodedSearches,
  lists: EvaluationLists,
  frequency: Float64Array,
  propensity: Float64Array,
  k: number,
): number {
  let sum = 0;
  let squares = 0;
  const { candidate } = lists;
  for (let q = 0; q < candidate.count; q += 1) {
    const start = candidate.start[q] as number;
    const n = Math.min(k, candidate.length[q] as number);
    for (let r = 0; r < n; r += 1) {
      const p = candidate.pair[start + r] as number;
      if (p < 0) continue;
      const first = log.pairStart[p] as number;
      const end = log.pairStart[p + 1] as number;
      const scale = ((frequency[q] as number) / (end - first)) * (propensity[r] as number);
      for (let i = first; i < end; i += 1) {
        const w = scale / (propensity[log.impRank[i] as number] as number);
        sum += w;
        squares += w * w;
      }
    }
  }
  return squares > 0 ? (sum * sum) / squares : 0;
}

function validate(input: EvaluationInput, depth: number, replicates: number, minCoverage: number): void {
  if (!ESTIMATORS.includes(input.estimator)) throw new RangeError(`unknown estimator: ${String(input.estimator)}`);
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_RANKS) throw new RangeError(`depth must be an integer in 1..${MAX_RANKS}`);
  if (!Number.isInteger(replicates) || replicates < 0) throw new RangeError('bootstrap must be a non-negative integer');
  if (!(minCoverage >= 0 && minCoverage <= 1)) throw new RangeError('minCoverage must be in [0, 1]');
  const p = input.propensities;
  const bad = Array.isArray(p)
    ? (p as readonly number[]).length === 0 || (p as readonly number[]).some((x) => !(x > 0) || !Number.isFinite(x))
    : typeof (p as { harvest?: unknown } | undefined)?.harvest !== 'object';
  if (bad) {
    throw new RangeError('propensities must be positive finite numbers, index 0 = position 1, or { harvest: { maxDepth } }');
  }
}
