import type { Clock } from '../common/clock.js';
import { FakeAttributionStore } from './attribution/fake-attribution.store.js';
import { FakePreExposureCovariates } from './attribution/fake-pre-exposure-covariates.store.js';
import { foldSession } from './attribution/fake-session-fold.js';
import { FakeExposureStore } from './assignment/fake-exposure.store.js';
import { FakeExperimentStore } from './definition/fake-experiment.store.js';
import { createExperimentsServices, type ExperimentsStores, type ExperimentsWiring } from './experiments-services.js';
import type { AttributableItem } from './model/attribution-records.js';
import { FakeExperimentData } from './model/fake-experiment-data.js';
import { FakeInterleavedQueryStore } from './model/fake-interleaved-query.store.js';
import { FakePlanningStore } from './planning/fake-planning.store.js';
import { FakeQueryCoverageStore } from './query-coverage/fake-query-coverage.store.js';
import { FakeResultsStore } from './results/fake-results.store.js';
import { FakeExplorationStore } from './ranking/fake-exploration.store.js';

export interface FakeExperimentsOptions extends Omit<ExperimentsWiring, 'clock'> {
  /** The clock: a fixed instant, or a function a test moves forward. */
  now: number | (() => number);
  /** The feedback the read models aggregate (the feedback module's, in production); a test pushes into it. */
  feedback?: AttributableItem[];
}

/** The in-memory stores over one FakeExperimentData, as the Kysely stores share one database. */
export function createFakeExperimentsStores(data: FakeExperimentData) {
  return {
    experiments: new FakeExperimentStore(data),
    exposures: new FakeExposureStore(data),
    attribution: new FakeAttributionStore(data),
    covariates: new FakePreExposureCovariates(data),
    results: new FakeResultsStore(data),
    planning: new FakePlanningStore(data, foldSession),
    interleaved: new FakeInterleavedQueryStore(),
    coverage: new FakeQueryCoverageStore(data),
    exploration: new FakeExplorationStore(),
  } satisfies ExperimentsStores;
}

/**
 * The whole experiments module over its fakes, wired exactly as createExperimentsModule wires it
 * (experiments-services.ts): a unit test of one service builds it in one call and reaches the
 * stores and the feedback it needs. Test code only, like every fake.
 */
export function createFakeExperiments(options: FakeExperimentsOptions) {
  const { now, feedback = [], ...wiring } = options;
  const clock: Clock = { now: typeof now === 'number' ? () => now : now };
  const data = new FakeExperimentData(() => feedback);
  const stores = createFakeExperimentsStores(data);
  return { clock, data, feedback, stores, ...createExperimentsServices(stores, { clock, ...wiring }) };
}
