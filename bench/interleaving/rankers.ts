/**
 * The rankers of the sensitivity benchmark and their known truth: LambdaMART models trained with
 * our own trainer on the training half of the LightGBM lambdarank sample (test/fixtures/ltr), made
 * deliberately better or worse by their number of trees, the features they may use and noise in
 * their training labels; each is scored on the held-out half, where its true quality is NDCG@10
 * by the graded labels and where the simulated users search.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { attachQueryIds, parseLetor } from '../../src/ranker/data/letor.js';
import { ndcgAt, rankRows } from '../../src/ranker/metrics/metrics.js';
import { predictRaw } from '../../src/ranker/model/model.js';
import { mulberry32 } from '../../src/random/index.js';
import { splitForValidation, train } from '../../src/ranker/train.js';
import type { Dataset } from '../../src/ranker/data/dataset.js';

/** One held-out query as a ranker orders it: labels and result ids in ranked order. */
export interface RankedQuery {
  readonly labels: Int8Array;
  readonly resultIds: readonly string[];
}

export interface BenchRanker {
  readonly name: string;
  /** Mean NDCG@10 over the held-out queries (every query weighs the same, as users sample them). */
  readonly ndcg10: number;
  readonly queries: readonly RankedQuery[];
}

export interface RankerSpec {
  readonly name: string;
  readonly trees: number;
  /** Features the model may use (the others are hidden as missing); null = all. */
  readonly features: number | null;
  /** Share of training labels replaced by uniformly random grades. */
  readonly labelNoise: number;
}

const DATA = fileURLToPath(new URL('../../test/fixtures/ltr/', import.meta.url));

export function loadSplit(seed: number): { trainSet: Dataset; heldOut: Dataset } {
  const text = attachQueryIds(readFileSync(`${DATA}rank.train`, 'utf8'), readFileSync(`${DATA}rank.train.query`, 'utf8'));
  const all = parseLetor(text, { maxFeatureIndex: 300 });
  const { train: trainSet, valid: heldOut } = splitForValidation(all, 0.5, seed);
  return { trainSet, heldOut };
}

/** A copy in which only `keep` randomly chosen features are visible and some labels are noise. */
function degrade(data: Dataset, spec: RankerSpec, seed: number): Dataset {
  const rng = mulberry32(seed);
  const F = data.numFeatures;
  const features = Float32Array.from(data.features);
  if (spec.features !== null) {
    const order = Array.from({ length: F }, (_, f) => f).sort(() => rng() - 0.5);
    const hidden = new Set(order.slice(spec.features));
    for (let r = 0; r < data.numRows; r += 1) for (const f of hidden) features[r * F + f] = Number.NaN;
  }
  const labels = Float32Array.from(data.labels, (l) => (rng() < spec.labelNoise ? Math.floor(rng() * 5) : l));
  return { ...data, features, labels };
}

/** A ranker's held-out rankings and true quality from its scores (ties keep the row order). */
function rankedByScores(name: string, heldOut: Dataset, scores: ArrayLike<number>): BenchRanker {
  const groups = heldOut.groups!;
  const queries: RankedQuery[] = [];
  for (let q = 0; q + 1 < groups.length; q += 1) {
    const start = groups[q]!;
    const order = rankRows(scores, start, groups[q + 1]!);
    queries.push({
      labels: Int8Array.from(order, (row) => heldOut.labels[row]!),
      resultIds: Array.from(order, (row) => `q${q}-d${row - start}`),
    });
  }
  return { name, ndcg10: ndcgAt(heldOut.labels, scores, groups, 10), queries };
}

export function trainRanker(spec: RankerSpec, trainSet: Dataset, heldOut: Dataset, seed: number): BenchRanker {
  const data = degrade(trainSet, spec, seed);
  const { model } = train(data, { objective: 'lambdarank', numTrees: spec.trees, learningRate: 0.1, numLeaves: 15, seed });
  return rankedByScores(spec.name, heldOut, predictRaw(model, heldOut.features, heldOut.numRows));
}

/** The engine's own order (the file's row order), as a variant without a model would serve. */
export function originalOrder(heldOut: Dataset): BenchRanker {
  return rankedByScores(
    'original',
    heldOut,
    Float64Array.from({ length: heldOut.numRows }, (_, r) => -r),
  );
}

/** Each query's results in a seeded random order: the floor any ranker should clear. */
export function randomOrder(heldOut: Dataset, seed: number): BenchRanker {
  const rng = mulberry32(seed);
  return rankedByScores(
    'random',
    heldOut,
    Float64Array.from({ length: heldOut.numRows }, () => rng()),
  );
}

export const RANKER_SPECS: readonly RankerSpec[] = [
  { name: 'full-100', trees: 100, features: null, labelNoise: 0 },
  { name: 'full-30', trees: 30, features: null, labelNoise: 0 },
  { name: 'full-10', trees: 10, features: null, labelNoise: 0 },
  { name: 'full-3', trees: 3, features: null, labelNoise: 0 },
  { name: 'full-1', trees: 1, features: null, labelNoise: 0 },
  { name: 'f60-30', trees: 30, features: 60, labelNoise: 0 },
  { name: 'f20-30', trees: 30, features: 20, labelNoise: 0 },
  { name: 'f8-30', trees: 30, features: 8, labelNoise: 0 },
  { name: 'f3-10', trees: 10, features: 3, labelNoise: 0 },
  { name: 'noise30-30', trees: 30, features: null, labelNoise: 0.3 },
  { name: 'noise60-30', trees: 30, features: null, labelNoise: 0.6 },
  { name: 'noise85-30', trees: 30, features: null, labelNoise: 0.85 },
  { name: 'f20-noise50-10', trees: 10, features: 20, labelNoise: 0.5 },
];
