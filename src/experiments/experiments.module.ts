import type { PersonalDataTable } from '../common/personal-data.js';
import type { Clock } from '../common/clock.js';
import type { DomainEventLog } from '../common/domain-events.js';
import type { DomainModule } from '../common/module.js';
import type { Metrics } from '../observability/metrics.js';
import type { DatabaseHandle } from '../storage/database.js';
import { createExperimentsServices, type ExperimentsStores } from './experiments-services.js';
import { KyselyAttributionStore } from './attribution/attribution.kysely-store.js';
import { KyselyPreExposureCovariates } from './attribution/pre-exposure-covariates.kysely-store.js';
import { KyselyQueryCoverageStore } from './query-coverage/query-coverage.kysely-store.js';
import { queryCoverageRoutes } from './query-coverage/query-coverage.routes.js';
import { KyselyExperimentStore } from './definition/experiment.kysely-store.js';
import { experimentRoutes } from './definition/experiment.routes.js';
import { assignmentRoutes } from './assignment/assignment.routes.js';
import { KyselyExposureStore } from './assignment/exposure.kysely-store.js';
import { experimentLifecycleRoutes } from './lifecycle/experiment-lifecycle.routes.js';
import { KyselyPlanningStore } from './planning/planning.kysely-store.js';
import { planningRoutes } from './planning/planning.routes.js';
import { KyselyResultsStore } from './results/results.kysely-store.js';
import { resultsRoutes } from './results/results.routes.js';
import { NO_MODELS, type AliasMove, type ModelCatalog } from './ports/model-catalog.js';
import { KyselyInterleavedQueryStore } from './model/interleaved-query.kysely-store.js';
import { rankRoutes } from './ranking/rank.routes.js';
import { KyselyExplorationStore } from './ranking/exploration.kysely-store.js';
import type { ClickRelevance } from './ports/click-relevance.js';

export type { ClickRelevance } from './ports/click-relevance.js';

export interface ExperimentsDependencies {
  database: DatabaseHandle;
  clock: Clock;
  metrics?: Pick<Metrics, 'exposures'>;
  /** The model registry as a port (the learning module's, wired by the container). */
  modelCatalog?: ModelCatalog;
  /** Writes a promotion's alias move inside the conclusion's transaction. */
  aliasWriter?: (trx: DatabaseHandle['db'], move: AliasMove) => Promise<void>;
  /** Log lines of experiments started, paused and concluded (the container's; silent without). */
  events?: DomainEventLog;
  /** The latest click model's relevance, for rank exploration's expected cost (the learning module's, wired by the container). */
  clickRelevance?: ClickRelevance;
}

/** The services the module offers the container (the guardrail monitor runs as a task only). */
export type ExperimentsServices = Omit<ReturnType<typeof createExperimentsServices>, 'guardrailMonitor'>;

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
  { table: 'exploration_lists', column: 'unit_id', kind: 'explorationLists' },
];

/** The Kysely stores over one database (a promotion's alias move is written in the conclusion's transaction). */
function createKyselyExperimentsStores(database: DatabaseHandle, aliasWriter: ExperimentsDependencies['aliasWriter']): ExperimentsStores {
  return {
    experiments: new KyselyExperimentStore(database.db, aliasWriter),
    exposures: new KyselyExposureStore(database.db, database.capabilities),
    attribution: new KyselyAttributionStore(database.db, database.capabilities),
    covariates: new KyselyPreExposureCovariates(database.db),
    results: new KyselyResultsStore(database.db),
    planning: new KyselyPlanningStore(database.db),
    interleaved: new KyselyInterleavedQueryStore(database.db),
    coverage: new KyselyQueryCoverageStore(database.db),
    exploration: new KyselyExplorationStore(database.db),
  };
}

/**
 * A/B experiments: definition (create, read, list), lifecycle (moves, edits, phases, the audit
 * log), assignment (assign and record exposures over the pure bucketing/ hashing), attribution
 * (feedback → per-unit sums), results (statistics, SRM), planning (power), interleaving results,
 * ranking and coverage (which experiments cover a query). The sub-domains meet only in
 * experiments-services.ts; this entry adds the Kysely stores, the routes and the tasks.
 */
export function createExperimentsModule({
  database,
  clock,
  metrics,
  modelCatalog = NO_MODELS,
  aliasWriter,
  events,
  clickRelevance,
}: ExperimentsDependencies): ExperimentsModule {
  const { guardrailMonitor, ...services } = createExperimentsServices(createKyselyExperimentsStores(database, aliasWriter), {
    clock,
    metrics,
    modelCatalog,
    events,
    clickRelevance,
  });

  return {
    services,
    // Each route file takes the services it names from the one services object.
    routes: async (app) => {
      await app.register(experimentRoutes, services);
      await app.register(experimentLifecycleRoutes, services);
      await app.register(assignmentRoutes, services);
      await app.register(resultsRoutes, services);
      await app.register(planningRoutes, services);
      await app.register(rankRoutes, services);
      await app.register(queryCoverageRoutes, services);
    },
    // Each is safe on several instances at once: lifecycle moves are compare-and-set,
    // attribution holds a lock, covariates are insert-if-absent, the cache poll only reads.
    tasks: [
      { name: 'experiment-scheduler', intervalMs: 1000, run: () => services.lifecycleService.applyDue(), observed: true },
      { name: 'attribution', intervalMs: 2000, run: ({ signal }) => services.attributionService.catchUp(signal), observed: true },
      { name: 'experiment-cache-poll', intervalMs: 1000, run: () => services.assignmentService.refreshIfChanged() },
      { name: 'pre-exposure-covariates', intervalMs: 1000, run: () => services.covariateService.drain(), observed: true },
      { name: 'guardrail-monitor', intervalMs: 60_000, run: ({ signal }) => guardrailMonitor.run(signal), observed: true },
    ],
    // Exposures and interleaved lists answered but not yet committed are written before the database closes.
    close: async () => {
      await Promise.all([services.assignmentService.drain(), services.rankService.drain()]);
    },
  };
}
