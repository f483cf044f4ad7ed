export type { CupedSums, EffectEstimate, MetricDirection, RatioSums, Scale, StatsReason, TestMethod } from './types.js';
export { chiSquareSf, normalCdf, normalPdf, normalQuantile, normalSf, tCdf, tQuantile, tSf } from './distributions/distributions.js';
export {
  SUMS_RELATIVE_TOLERANCE,
  armMoments,
  combineArms,
  estimateEffect,
  meanSums,
  proportionSums,
  welchDf,
  type ArmEstimate,
  type ArmMoments,
} from './frequentist/moments.js';
export {
  DEFAULT_ALPHA,
  analyzeEffect,
  compareArms,
  fixedHorizonTest,
  welchTest,
  type AnalysisOptions,
  type FrequentistOptions,
  type FrequentistResult,
  type OtherScaleEstimate,
} from './frequentist/frequentist.js';
export { basisInterval, basisPValue, excludesZero, type Interval, type IntervalBasis } from './frequentist/intervals.js';
export {
  invalidProportions,
  scoreBounds,
  scoreOneSidedPValue,
  scorePValue,
  scoreStatistic,
  type ScoreCompare,
  type TwoProportions,
} from './frequentist/score.js';
export {
  DEFAULT_SEQUENTIAL_TUNING,
  sequentialEffectTest,
  sequentialHalfwidth,
  sequentialOneSidedHalfwidth,
  sequentialOneSidedPValue,
  sequentialPValue,
  sequentialRho,
  sequentialTest,
  type SequentialOptions,
} from './sequential/sequential.js';
export { cupedTest, estimateCupedEffect, type CupedEffect, type CupedResult } from './frequentist/cuped.js';
export { SRM_MIN_UNITS_PER_ARM, SRM_THRESHOLD, srmCheck, type SrmOptions, type SrmResult } from './checks/srm.js';
export {
  adjustPValues,
  benjaminiHochberg,
  bonferroni,
  correctComparisons,
  holm,
  type AdjustedPValues,
  type CorrectedComparison,
  type Correction,
} from './frequentist/multiple-testing.js';
export {
  DEFAULT_PROPER_PRIOR,
  bayesianEffectTest,
  bayesianTest,
  normalExpectedPositivePart,
  type BayesianOptions,
  type BayesianResult,
  type GaussianPrior,
} from './bayesian/bayesian.js';
export {
  normalPower,
  powerAchieved,
  sampleSize,
  unitsStillNeeded,
  type PowerSoFarInput,
  type SampleSizeInput,
  type SampleSizeResult,
  type UnitsStillNeeded,
} from './planning/power.js';
export { comparisonPower, designFor, plannedCritical, solveScale, type ComparisonDesign, type PlanAnalysis } from './planning/planning.js';
export { compareProportions, proportionsZTest, type ProportionsZResult } from './frequentist/proportions.js';
export {
  guardrailEffectTest,
  guardrailProportions,
  guardrailTest,
  type GuardrailOptions,
  type GuardrailResult,
  type GuardrailSpec,
  type GuardrailStatus,
} from './checks/guardrails.js';
export {
  capArm,
  capArms,
  capThreshold,
  percentile,
  type CapSpec,
  type CappedArm,
  type CappingResult,
  type CapThreshold,
  type UnitValues,
} from './capping/capping.js';
export {
  compareQuantiles,
  logGrid,
  gridIndex,
  quantileEffect,
  quantileGridSums,
  quantileOfGrid,
  quantileOfItems,
  quantilesOfItems,
  quantileUnitsStillNeeded,
  type QuantileComparison,
  type QuantileEstimate,
  type QuantileGridSums,
} from './quantiles/quantiles.js';
export * from './interleaving/interleaving.js';
export {
  addGridDelta,
  addUnitChange,
  emptyGridDelta,
  gridSumsOf,
  quantileGridDelta,
  type QuantileGridDelta,
} from './quantiles/grid-delta.js';
