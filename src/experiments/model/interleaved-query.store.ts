import type { QueryCredit } from '../interleaving/index.js';

/** The list one query was shown in an interleaving experiment, and the credit its clicks earned so far. */
export interface InterleavedQueryRecord {
  experimentId: string;
  phase: number;
  unitId: string;
  queryId: string;
  recordedAt: number;
  teams: string[];
  depth: number;
  /** Shown order: result id and the index of its team in `teams`. */
  results: [string, number][];
  credit: QueryCredit | null;
}

export interface InterleavedQueryStore {
  /**
   * Stores a group of lists in one transaction (rank's write-behind), each unless its query already
   * has one: a retried call shows the same list, so the first stored is kept.
   */
  recordMany(rows: readonly InterleavedQueryRecord[]): Promise<void>;
  /** The lists of one experiment phase (results read them all). */
  listForPhase(experimentId: string, phase: number): Promise<InterleavedQueryRecord[]>;
}
