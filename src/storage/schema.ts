import type { AnalyticsTables } from './tables/analytics.js';
import type { AuthTables } from './tables/auth.js';
import type { ExperimentsTables } from './tables/experiments.js';
import type { FeedbackTables } from './tables/feedback.js';
import type { LearningTables } from './tables/learning.js';

/**
 * Table types shared by every Kysely store. Times are epoch milliseconds (UTC) in BIGINT
 * columns and JSON is stored as text, so that SQLite and PostgreSQL hold identical values
 * and the stores never branch on the dialect to read them.
 *
 * Each module declares its tables in tables/<module>.ts (in storage/, which sits below the
 * modules and must not import them); this file composes them and re-exports every table type.
 */
export interface Database extends FeedbackTables, AuthTables, LearningTables, ExperimentsTables, AnalyticsTables {}

export type { FeedbackSubmissionTable, FeedbackItemTable, IdempotencyKeyTable, FeedbackImportKeyTable } from './tables/feedback.js';
export type { ApiKeyTable } from './tables/auth.js';
export type {
  ModelTable,
  TrainingJobTable,
  ModelVersionTable,
  ModelTrainingStateTable,
  TrainingDatasetTable,
  ModelAliasTable,
  ModelAliasEventTable,
} from './tables/learning.js';
export type {
  ExperimentTable,
  ExperimentPhaseTable,
  ExperimentEventTable,
  ExperimentUnitTable,
  QuantileGridColumns,
  ExperimentQuantileSumsTable,
  ExperimentSliceQuantileSumsTable,
  ExperimentSearchTable,
  ExperimentUnitCovariateTable,
  ExperimentVariantUnitsTable,
  ExperimentVariantSumsTable,
  ExperimentUnitSlicesTable,
  ExperimentSliceSumsTable,
  ExperimentQuerySumsTable,
  InterleavedQueryTable,
} from './tables/experiments.js';
export type {
  AnalyticsCounterColumn,
  AnalyticsQueryHourTable,
  AnalyticsTotalHourTable,
  AnalyticsQueryDayTable,
  AnalyticsTotalDayTable,
  AnalyticsEntityTable,
  AnalyticsResultSliceTable,
  AnalyticsQueryTextTable,
  AnalyticsProgressTable,
  FeedbackRowidRewindTable,
  AnalyticsQueryWindowTable,
} from './tables/analytics.js';
