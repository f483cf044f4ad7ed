import type { MomentSums, QuantileSource, UnitStats } from '../../vocabulary/index.js';
import type { AttributableItem, QuantileSumDelta, QuerySumDelta, SliceQuantileSumDelta, SliceSumDelta } from './attribution-records.js';
import type { ExperimentEvent, ExperimentRecord, PhaseRecord } from './experiment.store.js';
import type { ExposureRecord } from './exposure.store.js';

/** An exposed unit as experiment_units holds it: the exposure and the unit's sums so far. */
export interface UnitRow {
  exposure: ExposureRecord;
  stats: UnitStats;
  /** Grid positions of the unit's quantile-metric items, per source. */
  quantilePositions?: Partial<Record<QuantileSource, number[]>>;
}

/**
 * The in-memory tables the experiments fakes share, as the Kysely stores share one database:
 * definitions and phases, exposed units, searches, variant-day counts and sums, covariates. The
 * feedback the read models aggregate belongs to the feedback module, so it is handed in (a fake
 * feedback store's items, in tests). Test code only: excluded from the build like every fake.
 */
export class FakeExperimentData {
  readonly experiments = new Map<string, ExperimentRecord>();
  readonly events: ExperimentEvent[] = [];
  readonly phases: PhaseRecord[] = [];
  /** Bumped by every write to experiments (the revision the assignment cache polls). */
  changes = 0;
  readonly units = new Map<string, UnitRow>();
  /** searchKey → has_click. */
  readonly searches = new Map<string, number>();
  readonly variantUnits = new Map<string, { experimentId: string; phase: number; variantId: string; day: number; units: number }>();
  readonly variantSums = new Map<
    string,
    { experimentId: string; phase: number; variantId: string; day: number; metric: string } & MomentSums
  >();
  /** unitKey + metric → the unit's covariate for that metric. */
  readonly covariates = new Map<string, { x: number; y: number; source: 'assign' | 'pre_exposure' }>();
  /** unitKey → the unit's slice values (fixed by its first attributed item). */
  readonly unitSlices = new Map<string, Record<string, string>>();
  /** experiment, phase, dimension, value, variant, metric → units and sums. */
  readonly sliceSums = new Map<string, SliceSumDelta>();
  /** experiment, phase, variant, day, source → quantile grid sums. */
  readonly quantileSums = new Map<string, QuantileSumDelta>();
  /** experiment, phase, dimension, value, variant, source → quantile grid sums. */
  readonly sliceQuantileSums = new Map<string, SliceQuantileSumDelta>();
  /** experiment, phase, variant, query hash → searches, clicked searches, last seen. */
  readonly querySums = new Map<string, QuerySumDelta>();
  /** Feedback item ids already attributed. */
  readonly attributed = new Set<string>();

  constructor(readonly feedback: () => readonly AttributableItem[] = () => []) {}
}

export const unitKey = (experimentId: string, phase: number, unitId: string) => `${experimentId}\u0000${phase}\u0000${unitId}`;
