import { foldSession } from '../../../src/experiments/attribution/fake-session-fold.js';
import { FakeAttributionStore } from '../../../src/experiments/attribution/fake-attribution.store.js';
import { FakePreExposureCovariates } from '../../../src/experiments/attribution/fake-pre-exposure-covariates.store.js';
import { KyselyAttributionStore } from '../../../src/experiments/attribution/attribution.kysely-store.js';
import type { AttributionStore } from '../../../src/experiments/attribution/attribution.store.js';
import { KyselyPreExposureCovariates } from '../../../src/experiments/attribution/pre-exposure-covariates.kysely-store.js';
import type { PreExposureCovariateStore } from '../../../src/experiments/attribution/pre-exposure-covariates.store.js';
import { planAttribution } from '../../../src/experiments/attribution/attribution.js';
import { FakeQueryCoverageStore } from '../../../src/experiments/query-coverage/fake-query-coverage.store.js';
import { KyselyQueryCoverageStore } from '../../../src/experiments/query-coverage/query-coverage.kysely-store.js';
import type { QueryCoverageStore } from '../../../src/experiments/query-coverage/query-coverage.store.js';
import { KyselyExperimentStore } from '../../../src/experiments/definition/experiment.kysely-store.js';
import type { ExperimentStore } from '../../../src/experiments/model/experiment.store.js';
import { FakeExperimentStore } from '../../../src/experiments/definition/fake-experiment.store.js';
import { KyselyExposureStore } from '../../../src/experiments/assignment/exposure.kysely-store.js';
import type { ExposureStore } from '../../../src/experiments/model/exposure.store.js';
import { FakeExposureStore } from '../../../src/experiments/assignment/fake-exposure.store.js';
import { FakeExperimentData } from '../../../src/experiments/model/fake-experiment-data.js';
import { FakePlanningStore } from '../../../src/experiments/planning/fake-planning.store.js';
import { FakeResultsStore } from '../../../src/experiments/results/fake-results.store.js';
import { KyselyPlanningStore } from '../../../src/experiments/planning/planning.kysely-store.js';
import { KyselyResultsStore } from '../../../src/experiments/results/results.kysely-store.js';
import type { PlanningStore } from '../../../src/experiments/planning/planning.store.js';
import type { ResultsStore } from '../../../src/experiments/results/results.store.js';
import { FakeFeedbackStore } from '../../../src/feedback/fake-feedback.store.js';
import { KyselyFeedbackStore } from '../../../src/feedback/feedback.kysely-store.js';
import type { FeedbackStore } from '../../../src/feedback/feedback.store.js';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import { event, experiment } from './experiments.js';

/** Every store the experiments module reads or writes, and the feedback they aggregate. */
export interface ExperimentWorld {
  feedback: FeedbackStore;
  experiments: ExperimentStore;
  exposures: ExposureStore;
  attribution: AttributionStore;
  results: ResultsStore;
  planning: PlanningStore;
  covariates: PreExposureCovariateStore;
  coverage: QueryCoverageStore;
}

export const experimentWorld = {
  kysely: (database: DatabaseHandle): ExperimentWorld => ({
    feedback: new KyselyFeedbackStore(database.db),
    experiments: new KyselyExperimentStore(database.db),
    exposures: new KyselyExposureStore(database.db, database.capabilities),
    attribution: new KyselyAttributionStore(database.db, database.capabilities),
    results: new KyselyResultsStore(database.db),
    planning: new KyselyPlanningStore(database.db),
    covariates: new KyselyPreExposureCovariates(database.db),
    coverage: new KyselyQueryCoverageStore(database.db),
  }),
  fake: (): ExperimentWorld => {
    const feedback = new FakeFeedbackStore();
    const data = new FakeExperimentData(() => feedback.items);
    return {
      feedback,
      experiments: new FakeExperimentStore(data),
      exposures: new FakeExposureStore(data),
      attribution: new FakeAttributionStore(data),
      results: new FakeResultsStore(data),
      planning: new FakePlanningStore(data, foldSession),
      covariates: new FakePreExposureCovariates(data),
      coverage: new FakeQueryCoverageStore(data),
    };
  },
};

/** An experiment running since `at` (phase 0 open). */
export async function runningExperiment(world: ExperimentWorld, id: string, at: number): Promise<void> {
  const e = experiment(id, { createdAt: at, updatedAt: at });
  await world.experiments.insert(e, event(`${id}-create`, id, 'create', at));
  const startPhase = { experimentId: id, phase: 0, seed: id, configuration: e.configuration, startedAt: at, endedAt: null };
  await world.experiments.update(
    { next: { ...e, status: 'running', updatedAt: at + 1 }, event: event(`${id}-start`, id, 'start', at + 1), startPhase },
    at,
  );
}

/** Stops it at `at`: its phase closes, and feedback arriving later no longer counts. */
export async function stopExperiment(world: ExperimentWorld, id: string, at: number): Promise<void> {
  const e = (await world.experiments.get(id))!;
  await world.experiments.update(
    { next: { ...e, status: 'stopped', updatedAt: at }, event: event(`${id}-stop`, id, 'stop', at), endPhaseAt: at },
    e.updatedAt,
  );
}

export const exposure = (
  experimentId: string,
  unitId: string,
  variantId: string,
  exposedAt: number,
  covariates: Record<string, number> | null = null,
) => ({
  experimentId,
  phase: 0,
  unitId,
  variantId,
  exposedAt,
  covariates,
});

/**
 * One attribution batch. null means another instance holds the attribution lock: on PostgreSQL
 * the advisory lock is server-wide, so another test file attributing in its own schema holds it
 * too; wait and try again, as the next scheduled run would.
 */
export async function attributeBatch(world: ExperimentWorld, batch: number, plan = planAttribution): Promise<number> {
  for (;;) {
    const n = await world.attribution.attributeNext(batch, plan);
    if (n !== null) return n;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Attributes the whole backlog in batches of `batch`; returns what each call processed. */
export async function attributeAll(world: ExperimentWorld, batch: number): Promise<number[]> {
  const calls: number[] = [];
  for (;;) {
    const n = await attributeBatch(world, batch);
    calls.push(n);
    if (n < batch) return calls;
  }
}

/** RatioSums of per-unit (x, y) pairs. */
export const sumsOf = (pairs: [number, number][]) => ({
  n: pairs.length,
  sumX: pairs.reduce((a, [x]) => a + x, 0),
  sumY: pairs.reduce((a, [, y]) => a + y, 0),
  sumX2: pairs.reduce((a, [x]) => a + x * x, 0),
  sumY2: pairs.reduce((a, [, y]) => a + y * y, 0),
  sumXY: pairs.reduce((a, [x, y]) => a + x * y, 0),
});
