import type { Clock } from '../../common/clock.js';
import { snapTiny } from '../../common/numbers.js';
import { ValidationError } from '../../common/errors.js';
import { WriteBehind, type WriteBehindOptions } from '../../common/write-behind.js';
import { assign, type AssignableExperiment, type Attributes } from '../bucketing/index.js';
import { isRankingExperiment, phaseSeed } from '../model/experiment-rules.js';
import type { ExperimentRecord, ExperimentStore } from '../model/experiment.store.js';
import type { AssignmentView } from './assignment.schemas.js';
import type { AssignInput } from '../ports/assignments.js';
import type { ExposureRecord, ExposureStore } from '../model/exposure.store.js';
import { METRIC_NAMES } from '../../vocabulary/index.js';
import { sliceAttributes } from '../model/slice-dimensions.js';

type VariantView = AssignmentView['variant'];

/**
 * Under steady traffic an exposure waits up to this long for others to share its group commit
 * (WriteBehind's lingerMs; a lone exposure at rest is written at once). No answer waits for it.
 */
export const EXPOSURE_COMMIT_DELAY_MS = 10;

interface ServingExperiment {
  record: ExperimentRecord;
  assignable: AssignableExperiment;
  /** Each variant's answer, built once per cache load and shared by every response (never mutated). */
  variantViews: Map<string, VariantView>;
  /** attr: dimensions the exposure keeps (analysis.dimensions), resolved once. */
  dimensions: readonly string[];
}

function toServing(record: ExperimentRecord): ServingExperiment {
  const c = record.configuration;
  return {
    record,
    variantViews: new Map(c.variants.map((v) => [v.id, { id: v.id, name: v.name, config: v.config }])),
    dimensions: c.analysis?.dimensions ?? [],
    assignable: {
      seed: phaseSeed(record.id, c, record.phase),
      hashVersion: 2,
      variants: c.variants,
      trafficAllocation: c.trafficAllocation,
      ...(c.layer ? { layer: { id: c.layer.id, range: c.layer.range } } : {}),
      ...(c.conditions ? { conditions: c.conditions } : {}),
    },
  };
}

function checkCovariates(covariates: Record<string, number> | undefined): Record<string, number> | null {
  if (!covariates) return null;
  for (const name of Object.keys(covariates)) {
    if (!(METRIC_NAMES as readonly string[]).includes(name)) {
      throw ValidationError.field(`/attributes/covariates/${name}`, `is not a metric; use one of ${METRIC_NAMES.join(', ')}`);
    }
  }
  const entries = Object.entries(covariates).map(([k, v]) => [k, snapTiny(v)] as const);
  return entries.length ? Object.fromEntries(entries) : null;
}

export interface AssignmentDependencies {
  experiments: Pick<ExperimentStore, 'listServing' | 'revision'>;
  exposures: Pick<ExposureStore, 'recordExposures'>;
  clock: Clock;
  loadExperiment: (id: string) => Promise<ExperimentRecord>;
  metrics?: { exposures: { inc(n: number): void } };
  /** Told about first exposures after they commit (the pre-exposure covariate queue listens). */
  onNewExposures?: (rows: ExposureRecord[]) => void;
  /** The exposure queue's limits and error hook (tests shrink them; defaults suit production). */
  exposureQueue?: WriteBehindOptions;
}

/**
 * The hot path. Running experiments live in memory; a call hashes the unit (no read) and answers
 * at once: its first exposure is queued for the next group commit (one idempotent insert per
 * group), so no answer waits for a disk. The cost, documented in docs/api/experiments.md: a
 * kill -9 loses the exposures answered since the last commit began. The cache reloads after a
 * local change and when a 1-second poll of the experiments' revision sees another instance's change.
 */
export class AssignmentService {
  private cache: { revision: string; experiments: ServingExperiment[]; byId: Map<string, ServingExperiment> } | undefined;
  private stale = true;
  private reloading: Promise<NonNullable<typeof this.cache>> | undefined;
  private readonly exposureWrites: WriteBehind<ExposureRecord>;
  private readonly experiments: Pick<ExperimentStore, 'listServing' | 'revision'>;
  private readonly clock: Clock;
  private readonly loadExperiment: (id: string) => Promise<ExperimentRecord>;

  constructor(deps: AssignmentDependencies) {
    const { experiments, exposures, clock, loadExperiment, metrics, onNewExposures = () => undefined } = deps;
    this.experiments = experiments;
    this.clock = clock;
    this.loadExperiment = loadExperiment;
    // Exposures queued since the last group share one idempotent insert; no answer waits for it.
    // Groups commit in the order their exposures were answered, and a failed group is retried
    // (the insert is idempotent), so what a crash loses is a suffix of the answers.
    this.exposureWrites = new WriteBehind(
      async (rows) => {
        const fresh = await exposures.recordExposures(rows);
        metrics?.exposures.inc(fresh.length);
        onNewExposures(fresh);
      },
      { lingerMs: EXPOSURE_COMMIT_DELAY_MS, ...deps.exposureQueue },
    );
  }

  /**
   * Resolves once every exposure answered before the call is committed (later ones are not
   * waited for, so a reader is not held up by sustained traffic): reads of exposure-derived
   * data on this instance see the answers this instance has given.
   */
  settled(): Promise<void> {
    return this.exposureWrites.settled();
  }

  /** Queues exposures for the next group; resolves at once unless the queue is over its limit. */
  private queue(rows: ExposureRecord[]): Promise<void> {
    return this.exposureWrites.submit(rows);
  }

  /** Exposures answered but not yet committed (queued or in the transaction being written). */
  get pendingExposures(): number {
    return this.exposureWrites.backlog;
  }

  /** Resolves once every exposure answered so far is committed: the shutdown path awaits it. */
  drain(): Promise<void> {
    return this.exposureWrites.drain();
  }

  invalidate(): void {
    this.stale = true;
  }

  /** The poll: one cheap query; reloads only when something changed. */
  async refreshIfChanged(): Promise<void> {
    const revision = await this.experiments.revision();
    if (!this.cache || revision !== this.cache.revision) this.stale = true;
  }

  private async serving(): Promise<NonNullable<typeof this.cache>> {
    if (!this.stale && this.cache) return this.cache;
    this.reloading ??= (async () => {
      try {
        this.stale = false;
        const revision = await this.experiments.revision();
        const experiments = (await this.experiments.listServing()).map(toServing);
        this.cache = { revision, experiments, byId: new Map(experiments.map((e) => [e.record.id, e])) };
        return this.cache;
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  private decide(s: ServingExperiment, unitId: string, attributes: Attributes): AssignmentView {
    const r = s.record;
    const variantView = (id: string | null) => (id === null ? null : (s.variantViews.get(id) ?? null));
    if (r.status === 'concluded') {
      const winner = r.conclusion?.winnerVariantId ?? null;
      return {
        experimentId: r.id,
        inExperiment: false,
        variantId: winner,
        variant: variantView(winner),
        phase: r.phase,
        reason: winner ? 'concluded_winner' : 'experiment_concluded',
      };
    }
    if (r.status !== 'running') {
      return { experimentId: r.id, inExperiment: false, variantId: null, variant: null, phase: r.phase, reason: `experiment_${r.status}` };
    }
    const a = assign(s.assignable, unitId, attributes);
    return {
      experimentId: r.id,
      inExperiment: a.inExperiment,
      variantId: a.variantId,
      variant: variantView(a.variantId),
      phase: r.phase,
      reason: a.reason,
    };
  }

  private exposure(
    view: AssignmentView,
    unitId: string,
    covariates: Record<string, number> | null,
    now: number,
    s?: ServingExperiment,
    attributes: Readonly<Record<string, unknown>> = {},
  ): ExposureRecord {
    // Only the attributes the experiment slices by (analysis.dimensions `attr:<name>`) are kept.
    const sliceValues = s && s.dimensions.length > 0 ? sliceAttributes(s.dimensions, attributes) : null;
    return {
      experimentId: view.experimentId,
      phase: view.phase,
      unitId,
      variantId: view.variantId!,
      exposedAt: now,
      covariates,
      ...(sliceValues ? { sliceAttributes: sliceValues } : {}),
    };
  }

  async assignOne(experimentId: string, input: AssignInput): Promise<AssignmentView> {
    const covariates = checkCovariates(input.attributes?.covariates);
    const cached = (await this.serving()).byId.get(experimentId);
    // Not served from the cache (created, paused, …): one read to tell 404 from "not running".
    const serving = cached ?? toServing(await this.loadExperiment(experimentId));
    const attributes = (input.attributes ?? {}) as Attributes;
    const view = this.decide(serving, input.unitId, attributes);
    if (view.inExperiment) {
      // Resolves at once unless the queue is over its limit (backpressure), never on the commit.
      await this.queue([this.exposure(view, input.unitId, covariates, this.clock.now(), serving, attributes)]);
    }
    return view;
  }

  /**
   * The running ranking experiment that decides this unit's queries (at most one can: start
   * refuses a second that could share units), with the unit's exposure queued as assign does.
   */
  async rankingAssignment(input: AssignInput): Promise<{ record: ExperimentRecord; variantId: string; phase: number } | null> {
    const covariates = checkCovariates(input.attributes?.covariates);
    const attributes = (input.attributes ?? {}) as Attributes;
    for (const s of (await this.serving()).experiments) {
      if (s.record.status !== 'running' || !isRankingExperiment(s.record.configuration)) continue;
      const view = this.decide(s, input.unitId, attributes);
      if (!view.inExperiment || view.variantId === null) continue;
      await this.queue([this.exposure(view, input.unitId, covariates, this.clock.now(), s, attributes)]);
      return { record: s.record, variantId: view.variantId, phase: view.phase };
    }
    return null;
  }

  async assignAll(input: AssignInput): Promise<{ unitId: string; assignments: AssignmentView[] }> {
    const covariates = checkCovariates(input.attributes?.covariates);
    const attributes = (input.attributes ?? {}) as Attributes;
    // A concluded experiment without a winner serves nobody, so it is left out of the list.
    const decided = (await this.serving()).experiments
      .map((s) => ({ s, a: this.decide(s, input.unitId, attributes) }))
      .filter(({ a }) => a.reason !== 'experiment_concluded');
    const assignments = decided.map(({ a }) => a);
    const now = this.clock.now();
    const enrolled = decided
      .filter(({ a }) => a.inExperiment)
      .map(({ s, a }) => this.exposure(a, input.unitId, covariates, now, s, attributes));
    await this.queue(enrolled);
    return { unitId: input.unitId, assignments };
  }
}
