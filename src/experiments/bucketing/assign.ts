import { chooseVariation, getBucketRanges, inLayer, type BucketRange, type LayerSlice } from './buckets.js';
import { evaluateCondition, type Attributes, type Condition } from './conditions.js';
import { hashUnit, type HashVersion } from './hash.js';

export interface Variant {
  readonly id: string;
  /** Share of the enrolled traffic, weights summing to 1 (see `validateExperiment`). */
  readonly weight: number;
}

/** The assignment-relevant part of an experiment. */
export interface AssignableExperiment {
  /** `configuration.seed` when set, else the experiment id: chosen by the caller. */
  readonly seed: string;
  /**
   * Defaults to 2. GrowthBook's SDK defaults to 1 when the field is absent, so
   * always send it explicitly when exporting to GrowthBook.
   */
  readonly hashVersion?: HashVersion;
  readonly variants: readonly Variant[];
  /** Fraction of eligible units enrolled, in [0, 1] (GrowthBook's `coverage`). */
  readonly trafficAllocation: number;
  readonly layer?: LayerSlice;
  readonly conditions?: Condition;
}

export type AssignmentReason = 'assigned' | 'invalid_experiment' | 'no_unit_id' | 'not_in_layer' | 'conditions_not_met' | 'not_in_traffic';

export interface Assignment {
  readonly inExperiment: boolean;
  /** Index into `variants`, -1 when not in the experiment. */
  readonly variantIndex: number;
  readonly variantId: string | null;
  /** The unit's hash in [0, 1) when it was computed (from the traffic step on), else null. */
  readonly bucket: number | null;
  readonly reason: AssignmentReason;
}

export const DEFAULT_HASH_VERSION: HashVersion = 2;

const excluded = (reason: AssignmentReason, bucket: number | null = null): Assignment => ({
  inExperiment: false,
  variantIndex: -1,
  variantId: null,
  bucket,
  reason,
});

/**
 * The ranges depend on the experiment alone, and the service assigns every request against the
 * same (readonly) experiment objects: computed once per object, not per call.
 */
const rangesOf = new WeakMap<AssignableExperiment, readonly BucketRange[]>();
function bucketRanges(experiment: AssignableExperiment): readonly BucketRange[] {
  let ranges = rangesOf.get(experiment);
  if (ranges === undefined) {
    ranges = getBucketRanges(
      experiment.variants.length,
      experiment.trafficAllocation,
      experiment.variants.map((v) => v.weight),
    );
    rangesOf.set(experiment, ranges);
  }
  return ranges;
}

/**
 * Decides whether a unit takes part in an experiment and in which variant.
 * The steps run in GrowthBook's `runExperiment` order (unit id, namespace,
 * condition, hash, coverage) so that the first failing step, reported as
 * `reason`, is the one GrowthBook would log. Pure and deterministic: the same
 * inputs always give the same answer, on every instance, with no storage.
 */
export function assign(experiment: AssignableExperiment, unitId: string, attributes: Attributes = {}): Assignment {
  const version = experiment.hashVersion ?? DEFAULT_HASH_VERSION;
  // GrowthBook returns "not in experiment" for fewer than two variations or an unknown hash version.
  if (experiment.variants.length < 2 || (version !== 1 && version !== 2)) return excluded('invalid_experiment');
  if (unitId.length === 0) return excluded('no_unit_id');
  if (experiment.layer !== undefined && !inLayer(unitId, experiment.layer)) return excluded('not_in_layer');
  if (experiment.conditions !== undefined && !evaluateCondition(experiment.conditions, attributes)) {
    return excluded('conditions_not_met');
  }

  const bucket = hashUnit(experiment.seed, unitId, version);
  const ranges = bucketRanges(experiment);
  const variantIndex = chooseVariation(bucket, ranges);
  const variant = experiment.variants[variantIndex];
  if (variant === undefined) return excluded('not_in_traffic', bucket);
  return { inExperiment: true, variantIndex, variantId: variant.id, bucket, reason: 'assigned' };
}
