import { spearman } from '../../click-models/index.js';
import type { OnlineOutcome } from '../ports/online-outcomes.js';
import type { TrackRecordView } from './evaluation.schemas.js';
import type { EvaluationRecord } from './evaluation.store.js';
import type { StoredResult } from './evaluation-view.js';

type Pair = TrackRecordView['pairs'][number];

/**
 * The online metric whose relative lift an offline metric predicts. ctr@k and clicks per search
 * both scale with online ctr (clicks over impressions at a fixed list length); satisfied clicks
 * per search is not satisfied_click_rate (a share of clicks), so it has no online twin.
 */
export function onlineTwin(offline: string): string | null {
  if (offline === 'mrr' || offline === 'abandonment_rate') return offline;
  if (offline === 'clicks_per_search' || offline.startsWith('ctr@')) return 'ctr';
  return null;
}

const inside = (x: number, [low, high]: [number, number]) => x >= low && x <= high;

/**
 * Pairs every finished evaluation of a model version with each online test of that version that
 * started after the evaluation was made (a prediction, not a postdiction). Every pair is kept,
 * contradicted or not.
 */
export function trackRecord(evaluations: readonly EvaluationRecord[], outcomes: readonly OnlineOutcome[]): TrackRecordView {
  const pairs: (Pair & { offlineMetric?: string })[] = [];
  for (const e of evaluations) {
    if (e.result === null || e.candidateModelId === null) continue;
    const result = JSON.parse(e.result) as StoredResult;
    for (const o of outcomes) {
      if (o.modelId !== e.candidateModelId || o.version !== e.candidateVersion || o.startedAt < e.createdAt) continue;
      const base = {
        evaluationId: e.id,
        experimentId: o.experimentId,
        experimentName: o.experimentName,
        variantKey: o.variantId,
        experimentStatus: o.experimentStatus,
      };
      if (o.kind === 'interleaving') {
        if (!o.share || !result.interleaving) continue;
        const predicted = result.interleaving.shareWon;
        pairs.push({
          ...base,
          kind: 'interleaving',
          metric: 'share_won',
          // The library gives the expected share without an interval: the point is compared with the observed interval.
          predicted: { estimate: predicted, interval: [predicted, predicted] },
          observed: o.share,
          inside: inside(predicted, o.share.interval),
          signAgrees: Math.sign(predicted - 0.5) === Math.sign(o.share.estimate - 0.5),
        });
        continue;
      }
      for (const m of result.metrics) {
        const twin = onlineTwin(m.metric);
        const observed = twin === null ? undefined : o.lifts.find((l) => l.metric === twin);
        if (!observed) continue;
        const predicted = m.relativeDifference;
        pairs.push({
          ...base,
          kind: 'ab',
          metric: twin as string,
          offlineMetric: m.metric,
          predicted: { estimate: predicted.estimate, interval: predicted.interval },
          observed: { estimate: observed.estimate, interval: observed.interval },
          inside: inside(observed.estimate, predicted.interval as [number, number]),
          signAgrees: Math.sign(predicted.estimate) === Math.sign(observed.estimate),
        });
      }
    }
  }
  const share = (f: (p: Pair) => boolean) => (pairs.length === 0 ? null : pairs.filter(f).length / pairs.length);
  // Rank correlation over A/B lifts only: an interleaving share is on another scale.
  const ab = pairs.filter((p) => p.kind === 'ab');
  const rho =
    ab.length >= 3
      ? spearman(
          ab.map((p) => p.predicted.estimate),
          ab.map((p) => p.observed.estimate),
        )
      : null;
  return {
    pairs,
    summary: {
      pairs: pairs.length,
      insideShare: share((p) => p.inside),
      signAgreement: share((p) => p.signAgrees),
      spearman: rho === null || Number.isNaN(rho) ? null : rho,
    },
  };
}
