import type { Clock } from '../common/clock.js';
import type { DomainEventLog } from '../common/domain-events.js';
import type { Metrics } from '../observability/metrics.js';
import type { AttributionStore } from './attribution/attribution.store.js';
import { AttributionService } from './attribution/attribution.service.js';
import { CovariateService } from './attribution/covariate.service.js';
import type { PreExposureCovariateStore } from './attribution/pre-exposure-covariates.store.js';
import { AssignmentService } from './assignment/assignment.service.js';
import { afterSearchTimeWrites } from './model/after-search-time-writes.js';
import { ExperimentService } from './definition/experiment.service.js';
import { interleavingResults } from './interleaving-results/interleaving-results.js';
import { GuardrailMonitor } from './lifecycle/guardrail-monitor.js';
import { ExperimentLifecycleService, type TrustCheck } from './lifecycle/experiment-lifecycle.service.js';
import type { ExperimentStore } from './model/experiment.store.js';
import type { ExposureRecord, ExposureStore } from './model/exposure.store.js';
import type { InterleavedQueryStore } from './model/interleaved-query.store.js';
import type { PlanningStore } from './planning/planning.store.js';
import { PowerService } from './planning/power.service.js';
import { NO_MODELS, type ModelCatalog } from './ports/model-catalog.js';
import type { QueryCoverageStore } from './query-coverage/query-coverage.store.js';
import { QueryCoverageService } from './query-coverage/query-coverage.service.js';
import { RankService } from './ranking/rank.service.js';
import { ExplorationService } from './ranking/exploration.service.js';
import type { ExplorationStore } from './ranking/exploration.store.js';
import type { ClickRelevance } from './ports/click-relevance.js';
import type { ResultsStore } from './results/results.store.js';
import { ResultsService } from './results/results.service.js';

/** Every store the experiments module reads and writes: the Kysely ones in production, the fakes in tests. */
export interface ExperimentsStores {
  experiments: ExperimentStore;
  exposures: ExposureStore;
  attribution: AttributionStore;
  covariates: PreExposureCovariateStore;
  results: ResultsStore;
  planning: PlanningStore;
  interleaved: InterleavedQueryStore;
  coverage: QueryCoverageStore;
  exploration: ExplorationStore;
}

export interface ExperimentsWiring {
  clock: Clock;
  metrics?: Pick<Metrics, 'exposures'>;
  /** The model registry as a port (the learning module's, wired by the container). */
  modelCatalog?: ModelCatalog;
  /** Tests only: listens to first exposures besides the covariate queue. */
  onNewExposures?: (rows: ExposureRecord[]) => void;
  /** Tests only: replaces the results' trust check that blocks shipping. */
  trustCheck?: TrustCheck;
  /** Log lines of experiments started, paused and concluded (the container's; silent without). */
  events?: DomainEventLog;
  /** The latest click model's relevance, for rank exploration's expected cost (the learning module's, wired by the container). */
  clickRelevance?: ClickRelevance | null;
}

/**
 * The one place the sub-domains meet: each service gets its stores and, through callbacks and ports,
 * the other sub-domains it needs. createExperimentsModule calls it over the Kysely stores,
 * createFakeExperiments (fake-experiments.ts) over the in-memory fakes.
 */
export function createExperimentsServices(stores: ExperimentsStores, wiring: ExperimentsWiring) {
  const { clock, metrics, modelCatalog = NO_MODELS } = wiring;
  const experimentService = new ExperimentService(stores.experiments, clock, modelCatalog);
  const load = (id: string) => experimentService.load(id);
  const covariateService = new CovariateService(stores.covariates);
  // First exposures queue their pre-exposure covariates once committed.
  const assignmentService = new AssignmentService({
    experiments: stores.experiments,
    exposures: stores.exposures,
    clock,
    loadExperiment: load,
    metrics,
    onNewExposures: (rows) => {
      covariateService.enqueue(rows);
      wiring.onNewExposures?.(rows);
    },
  });
  // Readers of exposures and interleaved lists first wait for those this instance has answered.
  const searchTimeWrites: { rank?: RankService } = {};
  const settled = () => Promise.all([assignmentService.settled(), searchTimeWrites.rank?.settled()]).then(() => undefined);
  const attributionService = new AttributionService(afterSearchTimeWrites(stores.attribution, settled), clock);
  const resultsService = new ResultsService({
    store: afterSearchTimeWrites(stores.results, settled),
    experiments: stores.experiments,
    exposures: afterSearchTimeWrites(stores.exposures, settled),
    attribution: attributionService,
    covariates: covariateService,
    load,
    clock,
    lists: afterSearchTimeWrites(stores.interleaved, settled),
    interleavingResults,
  });
  // Every applied change reloads the assignment cache; shipping is checked against the SRM verdict.
  const lifecycleService = new ExperimentLifecycleService({
    store: stores.experiments,
    clock,
    load,
    onChange: () => assignmentService.invalidate(),
    srm: wiring.trustCheck ?? ((e) => resultsService.trustCheck(e)),
    catalog: modelCatalog,
    events: wiring.events,
  });
  const coverageService = new QueryCoverageService(stores.coverage);
  const explorationService = new ExplorationService({
    store: stores.exploration,
    clock,
    relevance: wiring.clickRelevance ?? null,
    events: wiring.events,
  });
  const rankService = new RankService({
    assignments: assignmentService,
    catalog: modelCatalog,
    lists: stores.interleaved,
    load,
    clock,
    exploration: explorationService,
    onListWriteError: (error, lists) =>
      wiring.events?.record(
        'rank.lists.write_failed',
        { lists, error: error instanceof Error ? error.message : String(error) },
        `writing ${lists} interleaved lists failed (kept and retried): ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  searchTimeWrites.rank = rankService;
  const powerService = new PowerService({
    planning: stores.planning,
    results: afterSearchTimeWrites(stores.results, settled),
    load,
    clock,
  });
  const guardrailMonitor = new GuardrailMonitor(
    stores.experiments,
    (e, stop) => resultsService.sequentialGuardrails(e, stop),
    (id, breaches) => lifecycleService.act(id, 'pause', 'guardrail', { guardrailBreaches: breaches }),
  );
  return {
    experimentService,
    lifecycleService,
    assignmentService,
    attributionService,
    covariateService,
    resultsService,
    powerService,
    rankService,
    explorationService,
    coverageService,
    guardrailMonitor,
    /** Resolves once the exposures and interleaved lists answered before the call are committed. */
    searchTimeWritesSettled: settled,
  };
}
