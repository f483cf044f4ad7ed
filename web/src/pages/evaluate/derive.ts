// What the Evaluate page computes from the API's answers: the forest plot's rows, verdicts in the
// metric's direction, the candidate's label, and the text of a lift (the browser test reads the same text).
import { describeCandidate, type Estimate, type Evaluation, type EvalMetric, type TrackPair } from '../../api/evaluations';
import type { PredictedRow, TrackPoint } from '../../charts';
import { interval, lowerIsBetter, metricShortLabel, percent } from '../../format';
import type { MetricName } from '../experiments/new/draft';

/** The metrics offered, in the order the API's default lists them; satisfied clicks is off by default. */
export const OFFERED_METRICS: EvalMetric[] = ['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate', 'satisfied_clicks'];
export const DEFAULT_METRICS: EvalMetric[] = ['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate'];
/** Below this share of the candidate's top results with logged evidence, the page warns. */
export const COVERAGE_WARNING = 0.8;

export const ESTIMATORS = [
  { value: 'snips', label: 'SNIPS: self-normalised inverse propensity (default)' },
  { value: 'ips', label: 'IPS: inverse propensity scoring' },
  { value: 'dm-pbm', label: 'Direct method, PBM click model' },
  { value: 'dm-dbn', label: 'Direct method, DBN click model' },
  { value: 'dr', label: 'Doubly robust (direct method + IPS correction)' },
] as const;

/** "+4.12 %": a relative lift as the page writes it. */
export const liftText = (e: Estimate | null | undefined) => percent(e?.estimate, 2, true);
/** "[2.00 %, 6.30 %]" */
export const intervalText = (e: Estimate | null | undefined) =>
  e?.interval && e.interval[0] !== null && e.interval[1] !== null ? interval(e.interval as [number, number], (v) => percent(v, 2)) : '—';

/** Better or worse when the whole interval lies on one side of zero, read in the metric's direction. */
export function verdictOf(metric: string, low: number, high: number): PredictedRow['verdict'] {
  const sign = low > 0 ? 1 : high < 0 ? -1 : 0;
  if (sign === 0) return 'unclear';
  return sign > 0 !== lowerIsBetter(metric) ? 'better' : 'worse';
}

/** The name a candidate goes by on the page: the evaluation's name for uploaded rankings, else the model and version. */
export function candidateLabel(e: Evaluation): string {
  if (e.candidate.kind === 'rankings' && e.name) return e.name;
  return describeCandidate(e.candidate);
}

/** Distinct labels for the evaluations shown together (the same candidate run twice gets "#2"). */
export function labelsOf(evaluations: Evaluation[]): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const e of evaluations) {
    const base = candidateLabel(e);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(e.evaluationId, n === 1 ? base : `${base} #${n}`);
  }
  return out;
}

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** One row per candidate per metric with a relative lift and its interval; candidates without an estimate have none. */
export function forestRows(evaluations: Evaluation[], labels: Map<string, string>): PredictedRow[] {
  return evaluations.flatMap((e) =>
    e.metrics.flatMap((m) => {
      const r = m.relativeDifference;
      const [low, high] = r.interval ?? [null, null];
      if (!finite(r.estimate) || !finite(low) || !finite(high)) return [];
      return [
        {
          metric: metricShortLabel(m.metric),
          candidate: labels.get(e.evaluationId) ?? e.evaluationId,
          lift: r.estimate,
          low,
          high,
          verdict: verdictOf(m.metric, low, high),
        },
      ];
    }),
  );
}

/** The online catalogue's metric an offline metric predicts (ctr@k's relative lift is online CTR's). */
export function onlineMetric(metric: string): MetricName | null {
  if (metric === 'mrr' || metric === 'abandonment_rate') return metric;
  if (metric.startsWith('ctr@')) return 'ctr';
  if (metric === 'satisfied_clicks') return 'satisfied_click_rate';
  return null;
}

/** inside: online lift within the predicted interval; contradicted: the online lift's sign differs from the prediction's. */
export function trackOutcome(p: TrackPair): TrackPoint['outcome'] {
  if (p.signAgrees === false) return 'contradicted';
  return p.inside ? 'inside' : 'outside, same sign';
}

export function trackPoints(pairs: TrackPair[]): TrackPoint[] {
  return pairs.flatMap((p) => {
    const [pl, ph] = p.predicted.interval ?? [null, null];
    const [ol, oh] = p.observed?.interval ?? [null, null];
    if (!finite(p.predicted.estimate) || !finite(pl) || !finite(ph) || !p.observed || !finite(p.observed.estimate)) return [];
    return [
      {
        label: `${p.experimentName} · ${p.variantKey} · ${metricShortLabel(p.metric)}`,
        predicted: p.predicted.estimate,
        predictedLow: pl,
        predictedHigh: ph,
        observed: p.observed.estimate,
        observedLow: finite(ol) ? ol : null,
        observedHigh: finite(oh) ? oh : null,
        outcome: trackOutcome(p),
      },
    ];
  });
}
