import { CLICK_MODEL_ALGORITHMS } from '../../click-models/index.js';
import { DEFAULT_PROPENSITY_CLIP } from '../../ranker/index.js';
import { ValidationError, type ErrorDetail } from '../../common/errors.js';
import type { ModelType } from './model-types.js';
import { DAY_MS, HOUR_MS } from '../../common/time.js';

/**
 * The `config` of each model type, validated at registration so that a bad value is a 400
 * naming the field (`/config/numTrees`) instead of a failed training run later.
 */
export const DEFAULT_WINDOW_MS = 30 * DAY_MS;
export const DEFAULT_HELD_OUT_FRACTION = 0.2;
/** A model's `config`, serialized, is at most this long (checked at registration). */
export const MODEL_CONFIG_MAX_BYTES = 16 * 1024;

export interface CommonConfig {
  /** Retrain on this interval (ms); absent = only on request. */
  retrainEveryMs?: number;
  /** Training window (ms back from the run): feedback older than this is ignored. */
  windowMs: number;
  /** Share of the data (latest in time, or queries for rankers) kept out of training for metrics. */
  heldOutFraction: number;
  /** A version worse than the active one on held-out data replaces it anyway. */
  replaceIfWorse: boolean;
}

export interface ClickModelSettings extends CommonConfig {
  kind: 'click_model';
  algorithm: (typeof CLICK_MODEL_ALGORITHMS)[number];
  maxDepth?: number;
  iterations?: number;
  examinationMinImpressions?: number;
}

export interface TreeSettings {
  numTrees?: number;
  learningRate?: number;
  numLeaves?: number;
  minDataInLeaf?: number;
  baggingFraction?: number;
  featureFraction?: number;
  earlyStoppingRounds?: number;
  validationFraction?: number;
  seed?: number;
  /**
   * Threads one training run uses (the ranker's feature-parallel histograms): 1 by default,
   * 0 = every core. Not part of the model: any count grows the same trees.
   */
  threads?: number;
}

/** How a clicks ranker corrects for position bias (src/ranker/clicks). */
export const DEBIASING_MODES = ['none', 'ips', 'unbiased-lambdamart'] as const;
export type DebiasingMode = (typeof DEBIASING_MODES)[number];

export interface RankerSettings extends CommonConfig {
  kind: 'ranker';
  tree: TreeSettings;
  /**
   * `dataset`: the uploaded LETOR file; `feedback`: click-model judgments + behavioural features;
   * `clicks`: LambdaMART on the logged clicks themselves, debiased per `debiasing`.
   */
  trainingData: 'dataset' | 'feedback' | 'clicks';
  /** clicks only (set exactly then). */
  debiasing?: DebiasingMode;
  /** ips only: an explicit examination curve, position 1 first (= 1); absent = harvested from the window. */
  propensities?: number[];
  /** ips only (set exactly then): propensities are floored here. */
  propensityClip?: number;
  /** feedback: a click_model whose active version labels the pairs; absent = fit a PBM in the run. */
  clickModel?: string;
  /** LETOR: what an absent sparse entry means. */
  missing: 'nan' | 'zero';
  /** feedback: pairs with fewer impressions are not labelled. */
  minImpressions: number;
}

export interface EngagementSettings extends CommonConfig {
  kind: 'engagement_predictor';
  tree: TreeSettings;
  /** `click`: P(click); `satisfied_click`: P(click with dwell ≥ 30 s). */
  target: 'click' | 'satisfied_click';
}

export type ModelSettings = ClickModelSettings | RankerSettings | EngagementSettings;

const INTERVAL = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS, d: DAY_MS };

/** `24h`, `30d`, `90m`… → milliseconds; undefined when the text is not an interval. */
export function parseInterval(text: string): number | undefined {
  const m = INTERVAL.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number);
}

class Reader {
  readonly problems: ErrorDetail[] = [];
  readonly used = new Set<string>();
  constructor(private readonly config: Record<string, unknown>) {}

  private fail(key: string, message: string): undefined {
    this.problems.push({ path: `/config/${key}`, message, in: 'body' });
    return undefined;
  }

  number(key: string, min: number, max: number, opts: { integer?: boolean; exclusiveMin?: boolean } = {}): number | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.fail(key, 'must be a number');
    if (opts.integer && !Number.isInteger(v)) return this.fail(key, 'must be an integer');
    if (opts.exclusiveMin ? v <= min : v < min) return this.fail(key, `must be ${opts.exclusiveMin ? '>' : '>='} ${min}`);
    if (v > max) return this.fail(key, `must be <= ${max}`);
    return v;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) return this.fail(key, `must be one of ${values.join(', ')}`);
    return v as T;
  }

  boolean(key: string): boolean | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') return this.fail(key, 'must be a boolean');
    return v;
  }

  string(key: string, pattern: RegExp, what: string): string | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !pattern.test(v)) return this.fail(key, `must be ${what}`);
    return v;
  }

  interval(key: string, minMs: number): number | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    const ms = typeof v === 'string' ? parseInterval(v) : undefined;
    if (ms === undefined) return this.fail(key, 'must be an interval such as "90m", "24h" or "30d"');
    if (ms < minMs) return this.fail(key, `must be at least ${minMs / 60_000} minutes`);
    return ms;
  }

  /** An array of `min`–`max` numbers, each in (lo, hi]. */
  numbers(key: string, min: number, max: number, lo: number, hi: number): number[] | undefined {
    this.used.add(key);
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length < min || v.length > max) return this.fail(key, `must be an array of ${min} to ${max} numbers`);
    const bad = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x) || x <= lo || x > hi);
    if (bad >= 0) return this.fail(key, `item ${bad} must be a number in (${lo}, ${hi}]`);
    return v as number[];
  }

  /** A problem across fields, reported at `key`. */
  reject(key: string, message: string): void {
    this.fail(key, message);
  }

  rejectUnknown(): void {
    for (const key of Object.keys(this.config)) if (!this.used.has(key)) this.fail(key, 'is not a known setting for this model type');
  }
}

function common(r: Reader): CommonConfig {
  const retrainEveryMs = r.interval('retrainEvery', 60_000);
  return {
    ...(retrainEveryMs === undefined ? {} : { retrainEveryMs }),
    windowMs: r.interval('window', 60_000) ?? DEFAULT_WINDOW_MS,
    heldOutFraction: r.number('heldOutFraction', 0.05, 0.5) ?? DEFAULT_HELD_OUT_FRACTION,
    replaceIfWorse: r.boolean('replaceIfWorse') ?? false,
  };
}

function tree(r: Reader): TreeSettings {
  const out: TreeSettings = {
    numTrees: r.number('numTrees', 1, 2000, { integer: true }),
    learningRate: r.number('learningRate', 0, 1, { exclusiveMin: true }),
    numLeaves: r.number('numLeaves', 2, 1024, { integer: true }),
    minDataInLeaf: r.number('minDataInLeaf', 1, 1_000_000, { integer: true }),
    baggingFraction: r.number('baggingFraction', 0, 1, { exclusiveMin: true }),
    featureFraction: r.number('featureFraction', 0, 1, { exclusiveMin: true }),
    earlyStoppingRounds: r.number('earlyStoppingRounds', 0, 1000, { integer: true }),
    validationFraction: r.number('validationFraction', 0, 0.5),
    seed: r.number('seed', 0, 2 ** 31 - 1, { integer: true }),
    threads: r.number('threads', 0, 256, { integer: true }),
  };
  for (const key of Object.keys(out) as (keyof TreeSettings)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** debiasing, propensities and propensityClip: each only where the mode uses it, so a setting is never silently ignored. */
function clicksSettings(r: Reader, trainingData: RankerSettings['trainingData']): Partial<RankerSettings> {
  const given = r.oneOf('debiasing', DEBIASING_MODES);
  const propensities = r.numbers('propensities', 2, 50, 0, 1);
  const propensityClip = r.number('propensityClip', 0.01, 1);
  if (propensities !== undefined && propensities[0] !== 1) r.reject('propensities', 'item 0 (position 1) must be 1');
  if (trainingData !== 'clicks') {
    if (given !== undefined) r.reject('debiasing', 'applies only with trainingData "clicks"');
    if (propensities !== undefined) r.reject('propensities', 'applies only with trainingData "clicks" and debiasing "ips"');
    if (propensityClip !== undefined) r.reject('propensityClip', 'applies only with trainingData "clicks" and debiasing "ips"');
    return {};
  }
  // The lead may change this default after the benchmark (bench/unbiased-ltr).
  const debiasing = given ?? 'unbiased-lambdamart';
  if (debiasing !== 'ips') {
    if (propensities !== undefined) r.reject('propensities', 'applies only with debiasing "ips"');
    if (propensityClip !== undefined) r.reject('propensityClip', 'applies only with debiasing "ips"');
    return { debiasing };
  }
  return {
    debiasing,
    ...(propensities === undefined ? {} : { propensities }),
    propensityClip: propensityClip ?? DEFAULT_PROPENSITY_CLIP,
  };
}

/** Validates and resolves `config` for `type`; throws a 400 naming every bad field. */
export function resolveSettings(type: ModelType, config: Record<string, unknown>): ModelSettings {
  const r = new Reader(config);
  let settings: ModelSettings;
  if (type === 'click_model') {
    const maxDepth = r.number('maxDepth', 1, 50, { integer: true });
    const iterations = r.number('iterations', 1, 1000, { integer: true });
    const examinationMinImpressions = r.number('examinationMinImpressions', 0, 1_000_000, { integer: true });
    settings = {
      kind: 'click_model',
      algorithm: r.oneOf('algorithm', CLICK_MODEL_ALGORITHMS) ?? 'pbm',
      ...(maxDepth === undefined ? {} : { maxDepth }),
      ...(iterations === undefined ? {} : { iterations }),
      ...(examinationMinImpressions === undefined ? {} : { examinationMinImpressions }),
      ...common(r),
    };
  } else if (type === 'ranker') {
    r.oneOf('algorithm', ['lambdamart'] as const);
    const clickModel = r.string('clickModel', /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'a modelId');
    const trainingData = r.oneOf('trainingData', ['dataset', 'feedback', 'clicks'] as const) ?? 'feedback';
    settings = {
      kind: 'ranker',
      tree: tree(r),
      trainingData,
      ...clicksSettings(r, trainingData),
      ...(clickModel === undefined ? {} : { clickModel }),
      missing: r.oneOf('missing', ['nan', 'zero'] as const) ?? 'nan',
      minImpressions: r.number('minImpressions', 1, 1_000_000, { integer: true }) ?? 10,
      ...common(r),
    };
  } else {
    r.oneOf('algorithm', ['gbdt'] as const);
    settings = {
      kind: 'engagement_predictor',
      tree: tree(r),
      target: r.oneOf('target', ['click', 'satisfied_click'] as const) ?? 'click',
      ...common(r),
    };
  }
  r.rejectUnknown();
  if (r.problems.length > 0) {
    const first = r.problems[0] as ErrorDetail;
    throw new ValidationError(`${first.path}: ${first.message}`, r.problems);
  }
  return settings;
}
