import type { PersonalDataTable } from '../common/personal-data.js';
import type { Clock } from '../common/clock.js';
import type { DomainModule } from '../common/module.js';
import type { Metrics } from '../observability/metrics.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyAttributionStore } from './attribution/attribution.kysely-store.js';
import { AttributionService } from './attribution/attribution.service.js';
import { CovariateService } from './attribution/covariate.service.js';
import { KyselyPreExposureCovariates } from './attribution/pre-exposure-covariates.kysely-store.js';
import { KyselyQueryCoverageStore } from './query-coverage/query-coverage.kysely-store.js';
import { queryCoverageRoutes } from './query-coverage/query-coverage.routes.js';
import { QueryCoverageService } from './query-coverage/query-coverage.service.js';
import { KyselyExperimentStore } from './definition/experiment.kysely-store.js';
import { experimentRoutes } from './definition/experiment.routes.js';
import { ExperimentService } from './definition/experiment.service.js';
import { assignmentRoutes } from './assignment/assignment.routes.js';
import { AssignmentService } from './assignment/assignment.service.js';
import { KyselyExposureStore } from './assignment/exposure.kysely-store.js';
import { experimentLifecycleRoutes } from './lifecycle/experiment-lifecycle.routes.js';
import { ExperimentLifecycleService } from './lifecycle/experiment-lifecycle.service.js';
import { GuardrailMonitor } from './lifecycle/guardrail-monitor.js';
import { KyselyPlanningStore } from './planning/planning.kysely-store.js';
import { planningRoutes } from './planning/planning.routes.js';
import { PowerService } from './planning/power.service.js';
import { KyselyResultsStore } from './results/results.kysely-store.js';
import { resultsRoutes } from './results/results.routes.js';
import { NO_MODELS, type AliasMove, type ModelCatalog } from './ports/model-catalog.js';
import { KyselyInterleavedQueryStore } from './model/interleaved-query.kysely-store.js';
import { rankRoutes } from './ranking/rank.routes.js';
import { RankService } from './ranking/rank.service.js';
import { ResultsService } from './results/results.service.js';
import { interleavingResults } from './interleaving-results/interleaving-results.js';

export interface ExperimentsDependencies {
  database: DatabaseHandle;
  clock: Clock;
  metrics?: Pick<Metrics, 'exposures'>;
  /** The model registry as a port (the learning module's, wired by the container). */
  modelCatalog?: ModelCatalog;
  /** Writes a promotion's alias move inside the conclusion's transaction. */
  aliasWriter?: (trx: DatabaseHandle['db'], move: AliasMove) => Promise<void>;
}

export interface ExperimentsServices {
  experimentService: ExperimentService;
  lifecycleService: ExperimentLifecycleService;
  assignmentService: AssignmentService;
  attributionService: AttributionService;
  covariateService: CovariateService;
  resultsService: ResultsService;
  powerService: PowerService;
  rankService: RankService;
  coverageService: QueryCoverageService;
}

export type ExperimentsModule = DomainModule<ExperimentsServices>;

/**
 * The experiment rows keyed by a unit id (a session when clients assign by session): erased with the
 * session's feedback. Variant-day sums, slice and quantile sums and the per-query sums
 * (experiment_query_sums) stay: they hold totals over many units and identify no one.
 */
export const EXPERIMENTS_PERSONAL_DATA: PersonalDataTable[] = [
  { table: 'experiment_units', column: 'unit_id', kind: 'experimentUnits' },
  { table: 'experiment_searches', column: 'unit_id', kind: 'experimentSearches' },
  { table: 'experiment_unit_covariates', column: 'unit_id', kind: 'experimentCovariates' },
  { table: 'interleaved_queries', column: 'unit_id', kind: 'interleavedQueries' },
  { table: 'experiment_unit_slices', column: 'unit_id', kind: 'experimentSlices' },
];

/**
 * A/B experiments: definition (create, read, list), lifecycle (moves, edits, phases, the audit
 * log), assignment (assign and record exposures over the pure bucketing/ hashing), attribution
 * (feedback → per-unit sums), results (statistics, SRM), planning (power), interleaving results,
 * ranking and coverage (which experiments cover a query). The sub-domains talk through the
 * callbacks wired here.
 */
export function createExperimentsModule({
  database,
  clock,
  metrics,
  modelCatalog = NO_MODELS,
  aliasWriter,
}: ExperimentsDependencies): ExperimentsModule {
  const experimentStore = new KyselyExperimentStore(database.db, aliasWriter);
  const exposureStore = new KyselyExposureStore(database.db, database.capabilities);
  const resultsStore = new KyselyResultsStore(database.db);
  const interleavedStore = new KyselyInterleavedQueryStore(database.db);

  const experimentService = new ExperimentService(experimentStore, clock, modelCatalog);
  const load = (id: string) => experimentService.load(id);
  const covariateService = new CovariateService(new KyselyPreExposureCovariates(database.db));
  // First exposures queue their pre-exposure covariates once committed.
  const assignmentService = new AssignmentService(experimentStore, exposureStore, clock, load, metrics, (rows) =>
    covariateService.enqueue(rows),
  );
  const attributionService = new AttributionService(new KyselyAttributionStore(database.db, database.capabilities), clock);
  const resultsService = new ResultsService(
    resultsStore,
    experimentStore,
    exposureStore,
    attributionService,
    covariateService,
    load,
    clock,
    interleavedStore,
    interleavingResults,
  );
  // Every applied change reloads the assignment cache; shipping is checked against the SRM verdict.
  const lifecycleService = new ExperimentLifecycleService(
    experimentStore,
    clock,
    load,
    () => assignmentService.invalidate(),
    (e) => resultsService.trustCheck(e),
    modelCatalog,
  );
  const coverageService = new QueryCoverageService(new KyselyQueryCoverageStore(database.db));
  const rankService = new RankService(assignmentService, modelCatalog, interleavedStore, load, clock);
  const powerService = new PowerService(new KyselyPlanningStore(database.db), resultsStore, load, clock);
  const guardrailMonitor = new GuardrailMonitor(
    experimentStore,
    (e) => resultsService.sequentialGuardrails(e),
    (id, breaches) => lifecycleService.act(id, 'pause', 'guardrail', { guardrailBreaches: breaches }),
  );

  return {
    services: {
      experimentService,
      lifecycleService,
      assignmentService,
      attributionService,
      covariateService,
      resultsService,
      powerService,
      rankService,
      coverageService,
    },
    routes: async (app) => {
      await app.register(experimentRoutes, { experimentService });
      await app.register(experimentLifecycleRoutes, { lifecycleService, experimentService });
      await app.register(assignmentRoutes, { assignmentService });
      await app.register(resultsRoutes, { resultsService });
      await app.register(planningRoutes, { powerService });
      await app.register(rankRoutes, { rankService });
      await app.register(queryCoverageRoutes, { coverageService });
    },
    // Each is safe on several instances at once: lifecycle moves are compare-and-set,
    // attribution holds a lock, covariates are insert-if-absent, the cache poll only reads.
    tasks: [
      { name: 'experiment-scheduler', intervalMs: 1000, run: () => lifecycleService.applyDue(), observed: true },
      { name: 'attribution', intervalMs: 2000, run: () => attributionService.catchUp(), observed: true },
      { name: 'experiment-cache-poll', intervalMs: 1000, run: () => assignmentService.refreshIfChanged() },
      { name: 'pre-exposure-covariates', intervalMs: 1000, run: () => covariateService.drain(), observed: true },
      { name: 'guardrail-monitor', intervalMs: 60_000, run: () => guardrailMonitor.run(), observed: true },
    ],
    close: async () => undefined,
  };
}
