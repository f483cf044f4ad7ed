import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  auc,
  baseRate,
  compareToBaselines,
  expectedCalibrationError,
  logLoss,
  meanAveragePrecision,
  meanReciprocalRank,
  ndcgAt,
  rankingReport,
} from './metrics.js';

const fixture = JSON.parse(readFileSync(new URL('../../../test/fixtures/ranker/metrics.json', import.meta.url), 'utf8')) as {
  ranking: { labels: number[]; scores: number[]; groups: number[]; ndcg: Record<string, number>; map: number; mrr: number };
  binary: { labels: number[]; probs: number[]; auc: number; logLoss: number; ece: number; baseRate: number };
};

describe('ranking metrics by hand', () => {
  // One query, scores rank rows as [2, 0, 1]: labels in ranked order 2, 0, 1... see below.
  const labels = [0, 1, 2];
  const scores = [0.5, 0.1, 0.9];
  const groups = [0, 3];

  it('NDCG@k with gain 2^l − 1 and 1/log2(rank+1)', () => {
    // Ranked labels: 2, 0, 1 → DCG@3 = 3 + 0 + 1/2 = 3.5; ideal 2, 1, 0 → 3 + 1/log2(3).
    const idcg = 3 + 1 / Math.log2(3);
    expect(ndcgAt(labels, scores, groups, 3)).toBeCloseTo(3.5 / idcg, 12);
    expect(ndcgAt(labels, scores, groups, 1)).toBe(1);
    // @2: DCG = 3, IDCG = 3 + 1/log2(3)
    expect(ndcgAt(labels, scores, groups, 2)).toBeCloseTo(3 / idcg, 12);
  });

  it('MAP and MRR with relevant = label > 0', () => {
    // Relevant at ranks 1 and 3: AP = (1/1 + 2/3) / 2.
    expect(meanAveragePrecision(labels, scores, groups)).toBeCloseTo((1 + 2 / 3) / 2, 12);
    expect(meanReciprocalRank([2, 0, 1], [0.1, 0.9, 0.5], groups)).toBeCloseTo(1 / 2, 12);
  });

  it('applies the stated rule to queries with no relevant row', () => {
    const l = [0, 0, 1, 0];
    const s = [1, 2, 1, 2];
    const g = [0, 2, 4]; // query 1 all zero; query 2: relevant row ranked 2nd
    expect(ndcgAt(l, s, g, 10, 'one')).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 12);
    expect(ndcgAt(l, s, g, 10, 'zero')).toBeCloseTo(1 / Math.log2(3) / 2, 12);
    expect(ndcgAt(l, s, g, 10, 'skip')).toBeCloseTo(1 / Math.log2(3), 12);
    expect(meanReciprocalRank(l, s, g, 'skip')).toBeCloseTo(0.5, 12);
  });

  it('breaks score ties by original order', () => {
    expect(ndcgAt([0, 1], [1, 1], [0, 2], 1)).toBe(0);
    expect(ndcgAt([1, 0], [1, 1], [0, 2], 1)).toBe(1);
  });

  it('compares the model to the original and a seeded random order', () => {
    const r = compareToBaselines([0, 0, 3], [0, 1, 2], [0, 3], 7);
    expect(r.model.ndcg[1]).toBe(1);
    expect(r.original.ndcg[1]).toBe(0);
    expect(r.random).toEqual(compareToBaselines([0, 0, 3], [0, 1, 2], [0, 3], 7).random);
  });
});

describe('metrics against the numpy reference (scripts/fixtures/ranker/generate.py)', () => {
  it('NDCG@1/3/5/10, MAP and MRR', () => {
    const { labels, scores, groups } = fixture.ranking;
    const r = rankingReport(labels, scores, groups);
    for (const k of [1, 3, 5, 10] as const) expect(r.ndcg[k]).toBeCloseTo(fixture.ranking.ndcg[String(k)]!, 12);
    expect(r.map).toBeCloseTo(fixture.ranking.map, 12);
    expect(r.mrr).toBeCloseTo(fixture.ranking.mrr, 12);
  });

  it('AUC (ties averaged), log-loss, ECE and base rate', () => {
    const { labels, probs } = fixture.binary;
    expect(auc(labels, probs)).toBeCloseTo(fixture.binary.auc, 12);
    expect(logLoss(labels, probs)).toBeCloseTo(fixture.binary.logLoss, 12);
    expect(expectedCalibrationError(labels, probs)).toBeCloseTo(fixture.binary.ece, 12);
    expect(baseRate(labels)).toBe(fixture.binary.baseRate);
  });
});
