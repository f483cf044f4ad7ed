import type { ExperimentType } from '../model/experiment.store.js';
import type { ExperimentState } from '../model/lifecycle.js';

/** One variant's coverage of a query in a phase (experiment_query_sums). */
export interface VariantQueryCoverage {
  variantId: string;
  searches: number;
  clickedSearches: number;
  lastSeen: number;
}

/** An experiment phase that attributed searches of the query, with its variants' counts (by variant id). */
export interface PhaseQueryCoverage {
  experimentId: string;
  name: string;
  status: ExperimentState;
  type: ExperimentType;
  /** The experiment's variant ids in its configuration's order, for showing the variants as the experiment lists them. */
  variantOrder: string[];
  phase: number;
  /** The latest lastSeen of its variants: the list's order. */
  lastSeen: number;
  variants: VariantQueryCoverage[];
}

/** A position in the list, ordered by (lastSeen, experimentId, phase) descending. */
export interface CoverageKey {
  lastSeen: number;
  experimentId: string;
  phase: number;
}

/** The read model of which experiments cover a query, over the sums attribution keeps. */
export interface QueryCoverageStore {
  /** The phases with sums for `queryHash` strictly after `after`, at most `limit`. */
  phasesCovering(queryHash: string, after: CoverageKey | undefined, limit: number): Promise<PhaseQueryCoverage[]>;
}
