export { type Dataset, groupsFromSizes, subsetQueries, subsetRows } from './data/dataset.js';
export { type LetorOptions, LetorParseError, LetorParser, parseLetor, parseLetorStream, attachQueryIds } from './data/letor.js';
export { type BinMapper, MAX_BINS, buildBinMapper, binDataset, binOf, quantileCuts } from './data/binning.js';
export { type SplitCandidate, type SplitParams, findBestSplit } from './trees/split-finder.js';
export { type Tree, predictTree, treeDepth } from './trees/tree.js';
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
export { type SpawnSplitWorker, featureBlocks } from './trees/parallel-splitter.js';
export { type SplitWorkerData, serveSplitWorker } from './trees/split-protocol.js';
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
} from './model/model.js';
export { type CompiledForest, compileModel, compileTrees, scoreRow, scoreBatch, rowFromMap } from './model/forest.js';
export { type RowScorer, compileScorer } from './model/forest-codegen.js';
export {
  type XgbNode,
  type XgbSplitNode,
  type XgbLeafNode,
  type XgbScorer,
  toXgboostJson,
  toLtrPluginModel,
  parseXgboostJson,
} from './model/xgboost-json.js';
export { ModelImportError, type ImportFormat, type ImportSummary } from './model/import-common.js';
export { type XgboostImportOptions, importXgboostModel } from './model/import-xgboost.js';
export { type LightgbmImportOptions, importLightgbmModel } from './model/import-lightgbm.js';
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
} from './metrics/metrics.js';
export { type ClickSession, type ClickLog, buildClickLog, subsetClickLogQueries, splitClickLogByQuery } from './clicks/click-log.js';
export { type Debiasing, type PositionBiasCurve, DEFAULT_PROPENSITY_CLIP, ipsWeights } from './clicks/click-objective.js';
export { type ClickTrainOptions, type ClickTrainResult, DEFAULT_BIAS_NORM, trainOnClicks } from './clicks/train-on-clicks.js';
export { type ClickNdcg, clickNdcg } from './clicks/click-ndcg.js';
