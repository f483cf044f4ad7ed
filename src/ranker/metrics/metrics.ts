import { discount, labelGain } from '../objectives.js';
import { mulberry32 } from '../../random/index.js';

/**
 * Ranking and binary metrics.
 *
 * Conventions (stated because libraries differ):
 * - Rows are ranked by score descending; ties keep the original row order (stable).
 * - NDCG uses gain 2^label − 1 and discount 1/log2(rank + 1), rank from 1.
 * - A query with no relevant row (all labels 0) scores 1 for NDCG and MAP by default, as
 *   XGBoost's `ndcg@k`/`map@k` and LightGBM do; pass `emptyQueries: 'zero'` (XGBoost's
 *   `ndcg@k-`) or `'skip'` to drop them from the mean. MRR follows the same option.
 * - MAP: relevant = label > 0, AP = Σ precision@i over relevant ranks i / #relevant (untruncated).
 */
export type EmptyQueryRule = 'one' | 'zero' | 'skip';
type Num = ArrayLike<number>;

export const NDCG_CUTOFFS = [1, 3, 5, 10] as const;

export interface RankingReport {
  ndcg: { 1: number; 3: number; 5: number; 10: number };
  map: number;
  mrr: number;
  numQueries: number;
}

/** Row indices [start, end) ordered by score descending, ties by row order. */
export function rankRows(scores: Num, start: number, end: number): Int32Array {
  const idx = new Int32Array(end - start);
  for (let i = 0; i < idx.length; i++) idx[i] = start + i;
  return idx.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

function hasRelevant(labels: Num, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (labels[i]! > 0) return true;
  return false;
}

/** NDCG@k of one query, or null when it has no relevant row (the caller applies the rule). */
export function queryNdcg(labels: Num, scores: Num, start: number, end: number, k: number): number | null {
  const ranked = rankRows(scores, start, end);
  const ideal = Array.from({ length: end - start }, (_, i) => labels[start + i]!).sort((a, b) => b - a);
  let dcg = 0;
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    dcg += labelGain(labels[ranked[i]!]!) * discount(i);
    idcg += labelGain(ideal[i]!) * discount(i);
  }
  return idcg > 0 ? dcg / idcg : null;
}

export function queryAveragePrecision(labels: Num, scores: Num, start: number, end: number): number | null {
  if (!hasRelevant(labels, start, end)) return null;
  const ranked = rankRows(scores, start, end);
  let hits = 0;
  let sum = 0;
  for (let i = 0; i < ranked.length; i++) {
    if (labels[ranked[i]!]! > 0) {
      hits++;
      sum += hits / (i + 1);
    }
  }
  return sum / hits;
}

export function queryReciprocalRank(labels: Num, scores: Num, start: number, end: number): number | null {
  if (!hasRelevant(labels, start, end)) return null;
  const ranked = rankRows(scores, start, end);
  for (let i = 0; i < ranked.length; i++) if (labels[ranked[i]!]! > 0) return 1 / (i + 1);
  return null;
}

type PerQuery = (labels: Num, scores: Num, start: number, end: number) => number | null;

function meanOverQueries(labels: Num, scores: Num, groups: Num, fn: PerQuery, rule: EmptyQueryRule): number {
  let sum = 0;
  let n = 0;
  for (let q = 0; q + 1 < groups.length; q++) {
    const v = fn(labels, scores, groups[q]!, groups[q + 1]!);
    if (v === null && rule === 'skip') continue;
    sum += v ?? (rule === 'one' ? 1 : 0);
    n++;
  }
  return n > 0 ? sum / n : Number.NaN;
}

export function ndcgAt(labels: Num, scores: Num, groups: Num, k: number, rule: EmptyQueryRule = 'one'): number {
  return meanOverQueries(labels, scores, groups, (l, s, a, b) => queryNdcg(l, s, a, b, k), rule);
}

export function meanAveragePrecision(labels: Num, scores: Num, groups: Num, rule: EmptyQueryRule = 'one'): number {
  return meanOverQueries(labels, scores, groups, queryAveragePrecision, rule);
}

export function meanReciprocalRank(labels: Num, scores: Num, groups: Num, rule: EmptyQueryRule = 'one'): number {
  return meanOverQueries(labels, scores, groups, queryReciprocalRank, rule);
}

export function rankingReport(labels: Num, scores: Num, groups: Num, rule: EmptyQueryRule = 'one'): RankingReport {
  const at = (k: number) => ndcgAt(labels, scores, groups, k, rule);
  return {
    ndcg: { 1: at(1), 3: at(3), 5: at(5), 10: at(10) },
    map: meanAveragePrecision(labels, scores, groups, rule),
    mrr: meanReciprocalRank(labels, scores, groups, rule),
    numQueries: groups.length - 1,
  };
}

/** Scores that reproduce the original (file / engine) order within every query. */
export function originalOrderScores(numRows: number): Float64Array {
  const s = new Float64Array(numRows);
  for (let i = 0; i < numRows; i++) s[i] = -i;
  return s;
}

/** A seeded random order: the floor any ranker must beat. */
export function randomOrderScores(numRows: number, seed: number): Float64Array {
  const rng = mulberry32(seed);
  const s = new Float64Array(numRows);
  for (let i = 0; i < numRows; i++) s[i] = rng();
  return s;
}

/** Model vs original order vs seeded random order, the three rows of a ranking dashboard. */
export function compareToBaselines(labels: Num, scores: Num, groups: Num, seed = 1, rule: EmptyQueryRule = 'one') {
  return {
    model: rankingReport(labels, scores, groups, rule),
    original: rankingReport(labels, originalOrderScores(labels.length), groups, rule),
    random: rankingReport(labels, randomOrderScores(labels.length, seed), groups, rule),
  };
}

/** ROC AUC by the rank-sum (Mann–Whitney) formula; tied scores get their average rank. */
export function auc(labels: Num, scores: Num): number {
  const n = labels.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) {
      if (labels[idx[t]!]! > 0) {
        pos++;
        rankSum += avgRank;
      }
    }
    i = j + 1;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Mean binary cross-entropy; probabilities clipped to [1e-15, 1 − 1e-15] like scikit-learn. */
export function logLoss(labels: Num, probs: Num): number {
  let s = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(Math.max(probs[i]!, 1e-15), 1 - 1e-15);
    s -= labels[i]! > 0 ? Math.log(p) : Math.log(1 - p);
  }
  return s / labels.length;
}

/** ECE with equal-width bins on [0, 1]; p = 1 falls in the last bin. Weighted by bin size. */
export function expectedCalibrationError(labels: Num, probs: Num, numBins = 10): number {
  const count = new Float64Array(numBins);
  const sumP = new Float64Array(numBins);
  const sumY = new Float64Array(numBins);
  for (let i = 0; i < labels.length; i++) {
    const p = probs[i]!;
    const b = Math.min(numBins - 1, Math.floor(p * numBins));
    count[b]!++;
    sumP[b]! += p;
    sumY[b]! += labels[i]! > 0 ? 1 : 0;
  }
  let ece = 0;
  for (let b = 0; b < numBins; b++) if (count[b]! > 0) ece += Math.abs(sumY[b]! - sumP[b]!);
  return ece / labels.length;
}

export function baseRate(labels: Num): number {
  let pos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]! > 0) pos++;
  return pos / labels.length;
}

export interface BinaryReport {
  auc: number;
  logLoss: number;
  ece: number;
  baseRate: number;
  meanPrediction: number;
  n: number;
}

export function binaryReport(labels: Num, probs: Num): BinaryReport {
  let mean = 0;
  for (let i = 0; i < probs.length; i++) mean += probs[i]!;
  return {
    auc: auc(labels, probs),
    logLoss: logLoss(labels, probs),
    ece: expectedCalibrationError(labels, probs),
    baseRate: baseRate(labels),
    meanPrediction: mean / probs.length,
    n: labels.length,
  };
}
