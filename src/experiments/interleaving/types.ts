import type { InterleavingKey } from './random.js';

export type InterleavingMethod = 'team-draft' | 'team-draft-multileave';

/** Interleaved positions that carry credit, unless the experiment says otherwise. */
export const DEFAULT_DEPTH = 10;
export const MAX_DEPTH = 100;
/** The longest ranking one variant may contribute (as POST /api/nous/rank's results). */
export const MAX_RESULTS_PER_RANKING = 1000;
/** How many rankers each method takes: Radlinski et al. compare two; Schuth et al. multileave more. */
export const TEAM_LIMITS: Readonly<Record<InterleavingMethod, { readonly min: number; readonly max: number }>> = {
  'team-draft': { min: 2, max: 2 },
  'team-draft-multileave': { min: 3, max: 8 },
};

/** One ranker's list, best first; `team` is the variant id. */
export interface Ranking {
  readonly team: string;
  readonly resultIds: readonly string[];
}

export interface InterleaveRequest {
  readonly method: InterleavingMethod;
  /** One per variant, in the experiment's configuration order (the order is part of the input). */
  readonly rankings: readonly Ranking[];
  readonly key: InterleavingKey;
  readonly depth?: number;
}

export interface InterleavedResult {
  readonly resultId: string;
  /** The variant whose ranker placed it. */
  readonly team: string;
  /** 1-based position in the interleaved list. */
  readonly rank: number;
}

/** What is shown to the user and stored for crediting the query's clicks. */
export interface InterleavedList {
  readonly method: InterleavingMethod;
  readonly depth: number;
  readonly teams: readonly string[];
  readonly results: readonly InterleavedResult[];
}
