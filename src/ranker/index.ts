export { type Dataset, groupsFromSizes, subsetQueries, subsetRows } from './dataset.js';
export { type LetorOptions, LetorParseError, LetorParser, parseLetor, parseLetorStream, attachQueryIds } from './letor.js';
export { type BinMapper, MAX_BINS, buildBinMapper, binDataset, binOf, quantileCuts } from './binning.js';
export { type SplitCandidate, type SplitParams, findBestSplit } from './split-finder.js';
export { type Tree, predictTree, treeDepth } from './tree.js';
export {
  type Objective,
  type LambdaRankOptions,
  lambdaRankObjective,
  binaryObjective,
  labelGain,
  discount,
  sigmoid,
} from './objectives.js';
export {
  type TrainParams,
  type TrainResult,
  type TrainRuntime,
  type IterationLog,
  DEFAULT_PARAMS,
  train,
  splitForValidation,
} from './train.js';
export { type SpawnSplitWorker, featureBlocks } from './parallel-splitter.js';
export { type SplitWorkerData, serveSplitWorker } from './split-protocol.js';
export {
  type Model,
  type ObjectiveName,
  type FeatureImportance,
  type Explanation,
  predictRaw,
  toProbability,
  featureImportance,
  explain,
  serializeModel,
  deserializeModel,
} from './model.js';
export { type CompiledForest, compileModel, compileTrees, scoreRow, scoreBatch, rowFromMap } from './forest.js';
export {
  type XgbNode,
  type XgbSplitNode,
  type XgbLeafNode,
  type XgbScorer,
  toXgboostJson,
  toLtrPluginModel,
  parseXgboostJson,
} from './xgboost-json.js';
export {
  type EmptyQueryRule,
  type RankingReport,
  type BinaryReport,
  NDCG_CUTOFFS,
  ndcgAt,
  meanAveragePrecision,
  meanReciprocalRank,
  rankingReport,
  compareToBaselines,
  originalOrderScores,
  randomOrderScores,
  auc,
  logLoss,
  expectedCalibrationError,
  baseRate,
  binaryReport,
} from './metrics.js';
