import { binData, type BinMapper } from './data/binning.js';
import { subsetQueries, subsetRows, type Dataset } from './data/dataset.js';
import { logLoss, ndcgAt } from './metrics/metrics.js';
import type { Model, ObjectiveName } from './model/model.js';
import { binaryObjective, lambdaRankObjective, sigmoid, type Objective } from './objectives.js';
import { mulberry32, sampleIndices, shuffleInPlace } from '../random/index.js';
import { predictTree } from './trees/tree.js';
import type { SpawnSplitWorker } from './trees/parallel-splitter.js';
import { TreeBuilder } from './trees/tree-builder.js';

export interface TrainParams {
  objective: ObjectiveName;
  numTrees: number;
  learningRate: number;
  numLeaves: number;
  /** 0 = unlimited. */
  maxDepth: number;
  minDataInLeaf: number;
  /** XGBoost's min_child_weight. */
  minChildHessian: number;
  /** L2 on leaf values (XGBoost's lambda, default 1). */
  lambda: number;
  minSplitGain: number;
  maxBins: number;
  /** Row subsample per tree. */
  baggingFraction: number;
  /** Column subsample per tree. */
  featureFraction: number;
  seed: number;
  /** Stop after this many rounds without improvement on the validation split (0 = off). */
  earlyStoppingRounds: number;
  /** Hold out this share of queries (rows for binary) as the validation split, seeded. */
  validationFraction: number;
  /** NDCG cutoff monitored for early stopping (ranking). */
  evalAt: number;
  truncationLevel: number;
  sigma: number;
  normalizeLambdas: boolean;
  /**
   * Threads that build histograms (feature-parallel, worker threads over shared memory).
   * More than 1 needs `TrainRuntime.spawnSplitWorker`; `trainThreaded` in
   * src/learning/training/ranker-threads.ts provides it and reads 0 as every core. The trees
   * are the same for any count. Default 1. Not stored in the model.
   */
  threads: number;
}

/**
 * Defaults: LightGBM's for the tree shape, XGBoost's lambda = 1 and min_child_weight = 1
 * (minChildHessian; chosen on validation splits by bench/ranker/tune.ts). See README.
 */
export const DEFAULT_PARAMS: Omit<TrainParams, 'objective'> = {
  numTrees: 100,
  learningRate: 0.1,
  numLeaves: 31,
  maxDepth: 0,
  minDataInLeaf: 20,
  minChildHessian: 1,
  lambda: 1,
  minSplitGain: 0,
  maxBins: 255,
  baggingFraction: 1,
  featureFraction: 1,
  seed: 1,
  earlyStoppingRounds: 0,
  validationFraction: 0,
  evalAt: 10,
  truncationLevel: 30,
  sigma: 1,
  normalizeLambdas: true,
  threads: 1,
};

export interface IterationLog {
  iteration: number;
  /** NDCG@evalAt (ranking, higher is better) or log-loss (binary, lower is better). */
  valid?: number;
}

export interface TrainResult {
  model: Model;
  metric: string;
  history: IterationLog[];
  /** Set when a validation split was used. */
  bestScore?: number;
  trainRows: number;
  validRows: number;
}

/** Split by query (ranking) or by row (binary), seeded, so no query leaks across the split. */
export function splitForValidation(data: Dataset, fraction: number, seed: number): { train: Dataset; valid: Dataset } {
  const rng = mulberry32(seed ^ 0x5eed);
  const units = data.groups ? data.groups.length - 1 : data.numRows;
  const order = shuffleInPlace(
    Int32Array.from({ length: units }, (_, i) => i),
    rng,
  );
  const nValid = Math.max(1, Math.min(units - 1, Math.round(units * fraction)));
  const valid = order.slice(0, nValid).sort();
  const train = order.slice(nValid).sort();
  const pick = data.groups ? subsetQueries : subsetRows;
  return { train: pick(data, train), valid: pick(data, valid) };
}

/** What multi-threaded training needs from outside this pure folder. */
export interface TrainRuntime {
  spawnSplitWorker?: SpawnSplitWorker;
}

export function train(
  data: Dataset,
  params: Partial<TrainParams> & { objective: ObjectiveName },
  validation?: Dataset,
  runtime: TrainRuntime = {},
): TrainResult {
  const p: TrainParams = { ...DEFAULT_PARAMS, ...params };
  checkThreads(p);
  let trainSet = data;
  let validSet = validation;
  if (!validSet && p.validationFraction > 0)
    ({ train: trainSet, valid: validSet } = splitForValidation(data, p.validationFraction, p.seed));
  const ranking = p.objective === 'lambdarank';
  if (ranking && (!trainSet.groups || (validSet && !validSet.groups))) throw new Error('lambdarank needs query groups');

  const objective: Objective = ranking
    ? lambdaRankObjective(trainSet.labels, trainSet.groups!, {
        truncationLevel: p.truncationLevel,
        sigma: p.sigma,
        normalize: p.normalizeLambdas,
      })
    : binaryObjective(trainSet.labels);
  const v = validSet;
  const monitor: BoostValidation | undefined = v && {
    features: v.features,
    numRows: v.numRows,
    higherIsBetter: ranking,
    evaluate: ranking
      ? (scores) => ndcgAt(v.labels, scores, v.groups!, p.evalAt)
      : (scores) => logLoss(v.labels, Array.from(scores, sigmoid)),
  };
  return boostWith(trainSet, p, objective, ranking ? `ndcg@${p.evalAt}` : 'logloss', monitor, runtime);
}

function checkThreads(p: TrainParams): void {
  if (!Number.isInteger(p.threads) || p.threads < 1) throw new RangeError(`threads must be a positive integer, got ${p.threads}`);
}

/** A validation set and its metric, evaluated after every tree (early stopping when `earlyStoppingRounds` > 0). */
export interface BoostValidation {
  features: Float32Array;
  numRows: number;
  higherIsBetter: boolean;
  evaluate(scores: Float64Array): number;
}

/**
 * The boosting loop with any objective: `train` passes LambdaRank or log-loss, src/ranker/clicks
 * its click objective. `data` gives the features to bin and the labels `initScore` reads.
 * Internal to src/ranker (index.ts does not export it).
 */
export function boostWith(
  data: Dataset,
  p: TrainParams,
  objective: Objective,
  metric: string,
  validation: BoostValidation | undefined,
  runtime: TrainRuntime = {},
): TrainResult {
  checkThreads(p);
  const { mapper, colBins } = binData(data, p.maxBins);
  const builder = new TreeBuilder(colBins, data.numRows, data.numFeatures, mapper, p, p.threads, runtime.spawnSplitWorker);
  try {
    return boost(p, objective, metric, data, validation, mapper, builder);
  } finally {
    builder.close();
  }
}

function boost(
  p: TrainParams,
  objective: Objective,
  metric: string,
  trainSet: Dataset,
  validSet: BoostValidation | undefined,
  mapper: BinMapper,
  builder: TreeBuilder,
): TrainResult {
  const n = trainSet.numRows;
  const F = trainSet.numFeatures;
  const usable = Int32Array.from([...Array(F).keys()].filter((f) => mapper.numBins[f]! >= 2));
  const rng = mulberry32(p.seed);

  const baseScore = objective.initScore(trainSet.labels);
  const scores = new Float64Array(n).fill(baseScore);
  const { grad, hess } = builder;
  const validScores = validSet ? new Float64Array(validSet.numRows).fill(baseScore) : null;
  const model: Model = {
    format: 'searchloop-gbdt',
    version: 1,
    objective: p.objective,
    baseScore,
    featureNames: [...trainSet.featureNames],
    trees: [],
    bestIteration: 0,
    params: modelParams(p),
  };
  const history: IterationLog[] = [];
  const higherIsBetter = validSet?.higherIsBetter ?? true;
  let best = higherIsBetter ? -Infinity : Infinity;
  let bestIter = 0;

  for (let it = 0; it < p.numTrees; it++) {
    objective.gradients(scores, grad, hess);
    const rows = p.baggingFraction < 1 ? sampleIndices(n, Math.max(1, Math.round(n * p.baggingFraction)), rng) : null;
    const feats = p.featureFraction < 1 ? pickFeatures(usable, p.featureFraction, rng) : usable;
    const tree = builder.build(rows, feats);
    model.trees.push(tree);
    builder.addToScores(tree, scores);
    if (!validSet || !validScores) {
      history.push({ iteration: it + 1 });
      continue;
    }
    for (let r = 0; r < validSet.numRows; r++) validScores[r]! += predictTree(tree, validSet.features, r * F);
    const v = validSet.evaluate(validScores);
    history.push({ iteration: it + 1, valid: v });
    if (higherIsBetter ? v > best : v < best) {
      best = v;
      bestIter = it + 1;
    } else if (p.earlyStoppingRounds > 0 && it + 1 - bestIter >= p.earlyStoppingRounds) break;
  }
  if (validSet && p.earlyStoppingRounds > 0) model.trees.length = bestIter;
  model.bestIteration = validSet && p.earlyStoppingRounds > 0 ? bestIter : model.trees.length;
  return {
    model,
    metric,
    history,
    ...(validSet ? { bestScore: best } : {}),
    trainRows: n,
    validRows: validSet?.numRows ?? 0,
  };
}

/** The parameters a model records: everything that shapes it, not how many threads built it. */
function modelParams(p: TrainParams): Model['params'] {
  const { threads: _threads, ...rest } = p;
  return { ...rest };
}

function pickFeatures(usable: Int32Array, fraction: number, rng: () => number): Int32Array {
  const k = Math.max(1, Math.round(usable.length * fraction));
  const chosen = sampleIndices(usable.length, k, rng);
  return chosen.map((i) => usable[i]!);
}
