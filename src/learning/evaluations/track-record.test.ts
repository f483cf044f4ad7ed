import { describe, expect, it } from 'vitest';
import type { OnlineOutcome } from '../ports/online-outcomes.js';
import type { EvaluationRecord } from './evaluation.store.js';
import { onlineTwin, trackRecord } from './track-record.js';

const metric = (name: string, estimate: number, interval: [number, number]) => ({
  metric: name,
  candidate: { estimate: 0, interval: [0, 0] },
  baseline: { estimate: 0, interval: [0, 0] },
  difference: { estimate: 0, interval: [0, 0] },
  relativeDifference: { estimate, interval },
  effectiveSampleSize: 100,
  coverage: 1,
});

function evaluation(id: string, createdAt: number, metrics: ReturnType<typeof metric>[], shareWon = 0.6): EvaluationRecord {
  return {
    id,
    name: id,
    status: 'done',
    progress: 1,
    request: '{}',
    result: JSON.stringify({ metrics, interleaving: { wins: 6, losses: 4, ties: 0, shareWon } }),
    error: null,
    createdAt,
    finishedAt: createdAt,
    heartbeatAt: 0,
    createdBy: 'test',
    candidateModelId: 'ltr',
    candidateVersion: 2,
  };
}

function outcome(o: Partial<OnlineOutcome>): OnlineOutcome {
  return {
    experimentId: 'e1',
    experimentName: 'e1',
    experimentStatus: 'running',
    kind: 'ab',
    startedAt: 1000,
    variantId: 'ltr',
    controlVariantId: 'original',
    modelId: 'ltr',
    version: 2,
    lifts: [],
    share: null,
    ...o,
  };
}

describe('the track record', () => {
  it('maps offline metrics to their online twins, and has none for satisfied clicks', () => {
    expect(['mrr', 'abandonment_rate', 'ctr@10', 'clicks_per_search', 'satisfied_clicks'].map(onlineTwin)).toEqual([
      'mrr',
      'abandonment_rate',
      'ctr',
      'ctr',
      null,
    ]);
  });

  it('keeps a contradicted prediction, leaves out postdictions and other versions, and summarises every pair', () => {
    const evaluations = [
      evaluation('before', 500, [
        metric('mrr', 0.05, [0.02, 0.08]),
        metric('satisfied_clicks', 0.1, [0, 0.2]),
        metric('ctr@10', 0.03, [0.01, 0.05]),
      ]),
      evaluation('after', 2000, [metric('mrr', 0.05, [0.02, 0.08])]),
    ];
    const outcomes = [
      outcome({
        lifts: [
          { metric: 'mrr', estimate: -0.04, interval: [-0.07, -0.01] },
          { metric: 'ctr', estimate: 0.04, interval: [0.01, 0.07] },
          { metric: 'satisfied_click_rate', estimate: 0.2, interval: [0.1, 0.3] },
        ],
      }),
      outcome({ experimentId: 'e2', version: 3, lifts: [{ metric: 'mrr', estimate: 0.05, interval: [0, 0.1] }] }),
      outcome({ experimentId: 'e3', kind: 'interleaving', share: { estimate: 0.58, interval: [0.52, 0.64] } }),
    ];
    const record = trackRecord(evaluations, outcomes);
    expect(record.pairs.map((p) => [p.evaluationId, p.experimentId, p.metric, p.inside, p.signAgrees])).toEqual([
      ['before', 'e1', 'mrr', false, false],
      ['before', 'e1', 'ctr', true, true],
      ['before', 'e3', 'share_won', true, true],
    ]);
    expect(record.pairs[0]!.predicted).toEqual({ estimate: 0.05, interval: [0.02, 0.08] });
    expect(record.pairs[0]!.observed).toEqual({ estimate: -0.04, interval: [-0.07, -0.01] });
    expect(record.summary).toEqual({ pairs: 3, insideShare: 2 / 3, signAgreement: 2 / 3, spearman: null });
  });

  it('ranks predicted against observed A/B lifts (Spearman) from three pairs on', () => {
    const evaluations = [
      evaluation('a', 0, [metric('mrr', 0.01, [0, 0.02]), metric('ctr@5', 0.02, [0, 0.04]), metric('abandonment_rate', -0.03, [-0.05, 0])]),
    ];
    const lifts = [
      { metric: 'mrr', estimate: 0.02, interval: [0, 0.04] as [number, number] },
      { metric: 'ctr', estimate: 0.03, interval: [0, 0.06] as [number, number] },
      { metric: 'abandonment_rate', estimate: -0.01, interval: [-0.02, 0] as [number, number] },
    ];
    expect(trackRecord(evaluations, [outcome({ lifts })]).summary.spearman).toBeCloseTo(1, 10);
  });
});
