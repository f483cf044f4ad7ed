// How a ranker version was trained, read from its free-form metrics (the service writes them per run;
// older versions predate `training`, so every field is read defensively and may be missing).
import type { Model } from '../../api/types';

export type Metrics = Record<string, unknown>;

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const record = (v: unknown): Metrics | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Metrics) : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export type DataKind = 'clicks' | 'feedback' | 'dataset' | 'import';
export type Debiasing = 'none' | 'ips' | 'unbiased-lambdamart';
export type CurveSource = 'harvested' | 'config' | 'learned' | 'none';

export interface CurvePoint {
  position: number;
  /** t+ (learned), the propensity used (ips), 1 (none). */
  clicked: number;
  /** t− when learned; null otherwise. */
  unclicked: number | null;
}

export interface HeldOutClicks {
  metric: string;
  model: number | null;
  logged: number | null;
  groups: number | null;
  sessions: number | null;
}

export interface HeldOutJudgments {
  metric: string;
  source: string;
  model: number | null;
  logged: number | null;
  queries: number | null;
}

export interface TrainingView {
  data: DataKind | null;
  debiasing: Debiasing | null;
  clip: number | null;
  curve: { source: CurveSource; harvestedPairs: number | null; positions: CurvePoint[] } | null;
  heldOut: { clicks: HeldOutClicks | null; judgments: HeldOutJudgments | null } | null;
}

const DATA: readonly DataKind[] = ['clicks', 'feedback', 'dataset', 'import'];
const DEBIASING: readonly Debiasing[] = ['none', 'ips', 'unbiased-lambdamart'];
const SOURCES: readonly CurveSource[] = ['harvested', 'config', 'learned', 'none'];
const oneOf = <T extends string>(v: unknown, options: readonly T[]): T | null => (options.includes(v as T) ? (v as T) : null);

function readCurve(v: unknown): TrainingView['curve'] {
  const c = record(v);
  if (!c || !Array.isArray(c.positions)) return null;
  const positions = c.positions.flatMap((p): CurvePoint[] => {
    const r = record(p);
    const position = num(r?.position);
    const clicked = num(r?.clicked);
    // A point without its position or its clicked value cannot be drawn: it is left out rather than shown as 0.
    return r && position !== null && clicked !== null ? [{ position, clicked, unclicked: num(r.unclicked) }] : [];
  });
  return { source: oneOf(c.source, SOURCES) ?? 'none', harvestedPairs: num(c.harvestedPairs), positions };
}

function readHeldOut(v: unknown): TrainingView['heldOut'] {
  const h = record(v);
  if (!h) return null;
  const c = record(h.clicks);
  const j = record(h.judgments);
  return {
    clicks: c
      ? {
          metric: text(c.metric) ?? 'ips-ndcg@10',
          model: num(c.model),
          logged: num(c.logged),
          groups: num(c.groups),
          sessions: num(c.sessions),
        }
      : null,
    judgments: j
      ? {
          metric: text(j.metric) ?? 'ndcg@10',
          source: text(j.source) ?? 'judgments',
          model: num(j.model),
          logged: num(j.logged),
          queries: num(j.queries),
        }
      : null,
  };
}

/** The version's `training` and `heldOut`; versions from before them fall back to `source` (dataset, feedback, import). */
export function readTraining(metrics: Metrics): TrainingView {
  const t = record(metrics.training);
  return {
    data: oneOf(t?.data, DATA) ?? oneOf(metrics.source, DATA),
    debiasing: oneOf(t?.debiasing, DEBIASING),
    clip: num(t?.propensityClip),
    curve: readCurve(t?.positionBias),
    heldOut: readHeldOut(metrics.heldOut),
  };
}

/** "Clicks · IPS (clip 0.1)": the training mode in words, of a version (readTraining) or of a ranker's config (configMode). */
export function modeWords(view: Pick<TrainingView, 'data' | 'debiasing' | 'clip'>): string {
  switch (view.data) {
    case 'clicks':
      if (view.debiasing === 'ips') return `Clicks · IPS (clip ${view.clip ?? 0.1})`;
      if (view.debiasing === 'none') return 'Clicks · naive';
      return 'Clicks · Unbiased LambdaMART';
    case 'feedback':
      return 'Click-model judgments';
    case 'dataset':
      return 'Uploaded dataset';
    case 'import':
      return 'Imported model';
    default:
      return 'not recorded';
  }
}

/** What the config asks the next run to do (the service's defaults: feedback; unbiased-lambdamart for clicks; clip 0.1). */
export function configMode(config: Metrics): Pick<TrainingView, 'data' | 'debiasing' | 'clip'> {
  const data = oneOf(config.trainingData, DATA) ?? 'feedback';
  return {
    data,
    debiasing: data === 'clicks' ? (oneOf(config.debiasing, DEBIASING) ?? 'unbiased-lambdamart') : null,
    clip: num(config.propensityClip),
  };
}

/** How the metric names of `comparedOn` read on the page. */
const METRIC_LABELS: Record<string, string> = {
  'ips-ndcg@10': 'held-out IPS-NDCG@10 (clicks)',
  'ndcg@10': 'held-out NDCG@10',
  logLikelihood: 'held-out log-likelihood',
  logLoss: 'held-out log-loss',
};

const DEFAULT_KEY: Record<Model['type'], { metric: string; read: (m: Metrics) => number | null }> = {
  click_model: { metric: 'logLikelihood', read: (m) => num(m.logLikelihood) },
  ranker: { metric: 'ndcg@10', read: (m) => num(record(m.ndcg)?.['10']) },
  engagement_predictor: { metric: 'logLoss', read: (m) => num(m.logLoss) },
};

/**
 * The figure a version competed on when it was trained: what `comparedOn.metric` names (a ranker
 * trained on clicks competes on IPS-NDCG@10 of held-out clicks), else the type's usual figure.
 */
export function keyMetric(type: Model['type'], m: Metrics): { metric: string; label: string; value: number | null } {
  const compared = record(m.comparedOn);
  const named = text(compared?.metric);
  if (type === 'ranker' && named === 'ips-ndcg@10') {
    const value = num(compared?.value) ?? num(record(record(m.heldOut)?.clicks)?.model);
    return { metric: named, label: METRIC_LABELS[named]!, value };
  }
  const key = DEFAULT_KEY[type];
  return { metric: key.metric, label: METRIC_LABELS[key.metric]!, value: key.read(m) };
}
