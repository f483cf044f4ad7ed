export type { CupedSums, EffectEstimate, MetricDirection, RatioSums, StatsReason } from './types.js';
export { chiSquareSf, normalCdf, normalPdf, normalQuantile, normalSf, tCdf, tQuantile, tSf } from './distributions.js';
export {
  armMoments,
  combineArms,
  estimateEffect,
  meanSums,
  proportionSums,
  welchDf,
  type ArmEstimate,
  type ArmMoments,
} from './moments.js';
export { DEFAULT_ALPHA, fixedHorizonTest, welchTest, type FrequentistOptions, type FrequentistResult } from './frequentist.js';
export {
  DEFAULT_SEQUENTIAL_TUNING,
  sequentialEffectTest,
  sequentialHalfwidth,
  sequentialPValue,
  sequentialRho,
  sequentialTest,
  type SequentialOptions,
} from './sequential.js';
export { cupedTest, estimateCupedEffect, type CupedEffect, type CupedResult } from './cuped.js';
export { SRM_MIN_UNITS_PER_ARM, SRM_THRESHOLD, srmCheck, type SrmOptions, type SrmResult } from './srm.js';
export { benjaminiHochberg, holm, type AdjustedPValues } from './multiple-testing.js';
export {
  DEFAULT_PROPER_PRIOR,
  bayesianEffectTest,
  bayesianTest,
  normalExpectedPositivePart,
  type BayesianOptions,
  type BayesianResult,
  type GaussianPrior,
} from './bayesian.js';
export { normalPower, powerAchieved, sampleSize, type PowerSoFarInput, type SampleSizeInput, type SampleSizeResult } from './power.js';
export { proportionsZTest, type ProportionsZResult } from './proportions.js';
export { createRng, mulberry32, type Rng } from './random.js';
