import type { Dataset } from '../data/dataset.js';
import { boostWith, DEFAULT_PARAMS, type TrainParams, type TrainResult, type TrainRuntime } from '../train.js';
import { splitClickLogByQuery, type ClickLog } from './click-log.js';
import { clickNdcg } from './click-ndcg.js';
import {
  clickObjective,
  DEFAULT_PROPENSITY_CLIP,
  ipsWeights,
  type ClickObjective,
  type Debiasing,
  type PositionBiasCurve,
} from './click-objective.js';

/** Unbiased LambdaMART's default p: 0, the unregularised closed form of Hu et al. (their reported setting); see README. */
export const DEFAULT_BIAS_NORM = 0;

export interface ClickTrainOptions {
  debiasing: Debiasing;
  /** Required for 'ips' (position 1 first, relative to position 1). */
  propensities?: readonly number[];
  /** Default DEFAULT_PROPENSITY_CLIP. */
  clip?: number;
  /** Unbiased LambdaMART's p (t± = ratio^(1/(p+1))); default DEFAULT_BIAS_NORM. */
  biasNorm?: number;
  /** A held-out log to monitor (instead of `params.validationFraction`). */
  validation?: ClickLog;
}

export interface ClickTrainResult extends TrainResult {
  /** Learned t+ / t− (unbiased-lambdamart only). */
  positionBias: PositionBiasCurve | null;
}

const MODES: readonly Debiasing[] = ['none', 'ips', 'unbiased-lambdamart'];

/**
 * LambdaMART on clicks (see clickObjective for the pair weights of each mode). With a validation
 * log (`options.validation`, or `params.validationFraction` of the queries split off with the
 * seed) it monitors clickNdcg@evalAt weighted by the mode's position weights — ips: the given
 * propensities; unbiased-lambdamart: 1/max(t+, clip) of the current curve; none: 1 — and early-stops
 * on it when `earlyStoppingRounds` > 0. The model is an ordinary lambdarank Model.
 */
export function trainOnClicks(
  log: ClickLog,
  params: Partial<TrainParams>,
  options: ClickTrainOptions,
  runtime: TrainRuntime = {},
): ClickTrainResult {
  if (!MODES.includes(options.debiasing))
    throw new RangeError(`debiasing must be one of ${MODES.join(', ')}, got ${String(options.debiasing)}`);
  if (params.objective !== undefined && params.objective !== 'lambdarank')
    throw new RangeError(`trainOnClicks trains lambdarank models, got objective ${params.objective}`);
  const p: TrainParams = { ...DEFAULT_PARAMS, ...params, objective: 'lambdarank' };
  if (log.sessions.length === 0) throw new RangeError('the click log has no sessions to learn from');
  const clip = options.clip ?? DEFAULT_PROPENSITY_CLIP;
  const biasNorm = options.biasNorm ?? DEFAULT_BIAS_NORM;
  if (!(biasNorm >= 0 && Number.isFinite(biasNorm))) throw new RangeError(`biasNorm must be a finite number ≥ 0, got ${biasNorm}`);
  let weights: Float64Array | undefined;
  if (options.debiasing === 'ips') {
    if (!options.propensities || options.propensities.length === 0) throw new RangeError('ips needs propensities');
    weights = ipsWeights(options.propensities, clip);
  } else if (!(clip > 0 && clip <= 1)) throw new RangeError(`clip must be in (0, 1], got ${clip}`);

  let trainLog = log;
  let validLog = options.validation;
  if (!validLog && p.validationFraction > 0)
    ({ train: trainLog, valid: validLog } = splitClickLogByQuery(log, p.validationFraction, p.seed));

  const objective: ClickObjective = clickObjective(trainLog, {
    debiasing: options.debiasing,
    ...(weights ? { weights } : {}),
    biasNorm,
    clip,
    truncationLevel: p.truncationLevel,
    sigma: p.sigma,
    normalize: p.normalizeLambdas,
  });
  const v = validLog;
  const monitorWeights = (): Float64Array => {
    if (weights) return weights;
    const curve = objective.positionBias();
    return curve ? Float64Array.from(curve.clicked, (t) => 1 / Math.max(t, clip)) : Float64Array.of(1);
  };
  const result = boostWith(
    asDataset(trainLog),
    p,
    objective,
    `click-ndcg@${p.evalAt}`,
    v && {
      features: v.features,
      numRows: v.numRows,
      higherIsBetter: true,
      evaluate: (scores) => clickNdcg(v, scores, monitorWeights(), p.evalAt).model,
    },
    runtime,
  );
  return { ...result, positionBias: objective.positionBias() };
}

/** The boosting loop's view of a log: its rows and groups; labels (the click rates) are only read by initScore. */
function asDataset(log: ClickLog): Dataset {
  const labels = new Float32Array(log.numRows);
  for (let g = 0; g + 1 < log.groups.length; g++) {
    const n = log.sessions[g]!;
    for (let r = log.groups[g]!; r < log.groups[g + 1]!; r++) labels[r] = n > 0 ? log.clicks[r]! / n : 0;
  }
  return {
    numRows: log.numRows,
    numFeatures: log.numFeatures,
    features: log.features,
    labels,
    groups: log.groups,
    featureNames: log.featureNames,
  };
}
