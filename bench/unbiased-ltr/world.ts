/**
 * The semi-synthetic world of the unbiased-LTR bench: LightGBM's lambdarank sample (the offline-eval
 * bench's loader: grades 0–4 are the hidden truth, attractiveness ε− + (ε+ − ε−)(2^y − 1)/15 with
 * ε+ = 1, ε− = 0.1), a seeded train / validation / test split of its queries, and the two logging
 * rankers whose top 10s the simulated users see.
 */
import { loadWorld, type World } from '../offline-eval/world.js';
import { compileModel, ndcgAt, scoreBatch, subsetQueries, train, type Dataset } from '../../src/ranker/index.js';
import { createRng, mulberry32, shuffleInPlace } from '../../src/random/index.js';

export type { World };

/** Zipf exponent of query popularity: with 201 queries, s = 1.5 leaves a tail (< 20 sessions) even at 100 000 sessions. */
export const ZIPF = 1.5;

export interface Split {
  train: number[];
  valid: number[];
  test: number[];
}

/** 60 / 20 / 20 of the queries, seeded; validation decides settings, test only reports. */
export function splitQueries(world: World, seed: number): Split {
  const order = shuffleInPlace(
    world.queries.map((_, q) => q),
    mulberry32(seed * 7919 + 13),
  );
  const nTest = Math.round(order.length * 0.2);
  const nValid = Math.round(order.length * 0.2);
  const sort = (a: number[]) => a.sort((x, y) => x - y);
  return { test: sort(order.slice(0, nTest)), valid: sort(order.slice(nTest, nTest + nValid)), train: sort(order.slice(nTest + nValid)) };
}

export function makeWorld(seed: number): World {
  return loadWorld(ZIPF, seed);
}

/** The sample's rows of these queries (true labels, LightGBM features, missing = 0). */
export function labelled(world: World, queries: readonly number[]): Dataset {
  return subsetQueries(world.data, queries);
}

/** NDCG@10 of per-row scores (indexed by the sample's rows) on these queries' true grades. */
export function ndcg10(world: World, scores: ArrayLike<number>, queries: readonly number[]): number {
  if (queries.length === 0) return Number.NaN;
  const labels: number[] = [];
  const s: number[] = [];
  const groups = [0];
  for (const q of queries) {
    for (const r of world.queries[q]!) {
      labels.push(world.grade[r]!);
      s.push(scores[r]!);
    }
    groups.push(labels.length);
  }
  return ndcgAt(labels, s, groups, 10);
}

/** Scores of every row of the sample by a model trained on some rows. */
export function scoreAll(world: World, model: Parameters<typeof compileModel>[0]): Float64Array {
  return Float64Array.from(scoreBatch(compileModel(model), world.data.features));
}

export type LoggerName = 'weak' | 'good';

export interface Logger {
  name: LoggerName;
  describe: string;
  /** Per query: its rows, best first (the shown list is the top 10). */
  ranking: number[][];
}

/**
 * weak: the service's LambdaMART trained on the true labels of 2 training queries (1 % of the
 * sample's 201 queries, Ai et al. 2018's "1 % of the training data"); good: the true grade plus
 * Gaussian noise of sd 0.75 per document (a fixed draw), an imperfect engine that knows a lot.
 */
export function makeLogger(world: World, split: Split, name: LoggerName, seed: number): Logger {
  let score: Float64Array;
  if (name === 'weak') {
    const few = shuffleInPlace([...split.train], mulberry32(seed + 101)).slice(0, 2);
    const result = train(labelled(world, few), { objective: 'lambdarank', numTrees: 20, minDataInLeaf: 5, seed });
    score = scoreAll(world, result.model);
  } else {
    const rng = createRng(seed + 202);
    score = Float64Array.from(world.grade, (g) => g + rng.normal() * 0.75);
  }
  const ranking = world.queries.map((rows) => [...rows].sort((a, b) => score[b]! - score[a]! || a - b));
  const describe =
    name === 'weak'
      ? 'LambdaMART on the true labels of 2 training queries (1 % of the sample)'
      : 'true grade + N(0, 0.75²) noise per document';
  return { name, describe, ranking };
}

/** A logger's own NDCG@10 on some queries (its order as scores). */
export function loggerNdcg(world: World, logger: Logger, queries: readonly number[]): number {
  const s = new Float64Array(world.grade.length);
  logger.ranking.forEach((list) => list.forEach((r, i) => (s[r] = -i)));
  return ndcg10(world, s, queries);
}
