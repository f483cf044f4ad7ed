import type { Migration } from 'kysely';
import * as initial from './0001-0019/0001-initial.js';
import * as runningExperiments from './0001-0019/0002-running-experiments.js';
import * as experimentCovariates from './0001-0019/0003-experiment-covariates.js';
import * as modelTraining from './0001-0019/0004-model-training.js';
import * as variantSums from './0001-0019/0005-variant-sums.js';
import * as apiKeys from './0001-0019/0006-api-keys.js';
import * as dropJobState from './0001-0019/0007-drop-job-state.js';
import * as closedLoop from './0001-0019/0010-closed-loop.js';
import * as searchAnalytics from './0020-0059/0020-search-analytics.js';
import * as analyticsWindows from './0020-0059/0021-analytics-windows.js';
import * as sliceSums from './0020-0059/0030-slice-sums.js';
import * as attributeSlices from './0020-0059/0031-attribute-slices.js';
import * as quantileSums from './0020-0059/0032-quantile-sums.js';
import * as feedbackImportKeys from './0020-0059/0040-feedback-import-keys.js';
import * as erasure from './0060-0099/0060-erasure.js';
import * as feedbackRetention from './0060-0099/0061-feedback-retention.js';
import * as analyticsWindowListIndex from './0060-0099/0070-analytics-window-list-index.js';
import * as analyticsResults from './0060-0099/0075-analytics-results.js';
import * as experimentQueryCoverage from './0060-0099/0080-experiment-query-coverage.js';
import * as analyticsCursor from './0060-0099/0085-analytics-cursor.js';
import * as analyticsFile from './0060-0099/0090-analytics-file.js';
import * as analyticsXidCursor from './0060-0099/0095-analytics-xid-cursor.js';
import * as aliasClearing from './0100-0139/0100-alias-clearing.js';
import * as offlineEvaluations from './0100-0139/0101-offline-evaluations.js';
import * as rankExploration from './0100-0139/0102-rank-exploration.js';
import * as feedbackWriteIndexes from './0100-0139/0103-feedback-write-indexes.js';

/**
 * Migrations are listed here rather than read from the directory so that the compiled
 * build, tsx and the test runner all see the same ordered set.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-running-experiments': runningExperiments,
  '0003-experiment-covariates': experimentCovariates,
  '0004-model-training': modelTraining,
  '0005-variant-sums': variantSums,
  '0006-api-keys': apiKeys,
  '0007-drop-job-state': dropJobState,
  '0010-closed-loop': closedLoop,
  '0020-search-analytics': searchAnalytics,
  '0021-analytics-windows': analyticsWindows,
  '0030-slice-sums': sliceSums,
  '0031-attribute-slices': attributeSlices,
  '0032-quantile-sums': quantileSums,
  '0040-feedback-import-keys': feedbackImportKeys,
  '0060-erasure': erasure,
  '0061-feedback-retention': feedbackRetention,
  '0070-analytics-window-list-index': analyticsWindowListIndex,
  '0075-analytics-results': analyticsResults,
  '0080-experiment-query-coverage': experimentQueryCoverage,
  '0085-analytics-cursor': analyticsCursor,
  '0090-analytics-file': analyticsFile,
  '0095-analytics-xid-cursor': analyticsXidCursor,
  '0100-alias-clearing': aliasClearing,
  '0101-offline-evaluations': offlineEvaluations,
  '0102-rank-exploration': rankExploration,
  '0103-feedback-write-indexes': feedbackWriteIndexes,
};
