import type { Static } from 'typebox';
import type { AnalysisSettings, ExperimentRecord, VariantRecord } from '../model/experiment.store.js';
import type { InterleavedQueryRecord } from '../model/interleaved-query.store.js';
import type { InterleavingResultsView } from '../model/schemas/interleaving-results.schemas.js';

/**
 * The results of an interleaving experiment from its recorded lists (interleaving-results/, wired by the
 * module entry): the results service answers both kinds of experiment through one endpoint.
 */
export type InterleavingResults = (
  e: ExperimentRecord,
  variants: readonly VariantRecord[],
  lists: readonly InterleavedQueryRecord[],
  settings: AnalysisSettings,
) => { view: Static<typeof InterleavingResultsView>; summary: string; trustworthy: boolean };
