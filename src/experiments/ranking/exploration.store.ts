/** Light exploration's settings, as stored; no stored row means off. */
export interface ExplorationSettings {
  /** Share of units explored, 0..0.2 (0 = off). */
  share: number;
  /** Swaps happen among the top `depth` results. */
  depth: number;
  method: 'randpair';
  /** When the share last went from 0 to above 0 (lists are counted from there); null if never. */
  enabledAt: number | null;
  updatedAt: number;
  updatedBy: string;
}

/** One change of the settings, kept for the audit trail. */
export interface ExplorationChange {
  id: string;
  at: number;
  actor: string;
  before: ExplorationSettings | null;
  after: ExplorationSettings;
}

/** One explored search as it was shown. */
export interface ExploredList {
  unitId: string;
  queryId: string;
  queryHash: string | null;
  /** Result ids as shown, rank 1 first. */
  resultIds: string[];
  /** The swapped 1-based ranks (i, i + 1). */
  swapped: [number, number];
  /** Probability of this list given the unit is explored. */
  propensity: number;
  /** The share of units explored when it was shown. */
  share: number;
  recordedAt: number;
}

/** A logged search: its query and the results impressed, rank 1 first. */
export interface LoggedList {
  queryHash: string;
  resultIds: string[];
}

export interface ExplorationStore {
  settings(): Promise<ExplorationSettings | null>;
  /** Writes the settings and their change in one transaction. */
  save(change: ExplorationChange): Promise<void>;
  /** The audit trail, newest first. */
  changes(limit: number): Promise<ExplorationChange[]>;
  /** Stores the list unless this (unit, query) already has one (a retried call shows the same list); true when new. */
  record(list: ExploredList): Promise<boolean>;
  /** Explored lists recorded at or after `since`. */
  countSince(since: number): Promise<number>;
  /** Lists recorded at or after `since`, oldest first (tests and harvesting read them). */
  listSince(since: number, limit: number): Promise<ExploredList[]>;
  /**
   * The latest `limit` searches (queryIds) with impressions received at or after `since`, each as its
   * impressed results ordered by position (feedback_items `impression` rows with a position, result and query hash).
   */
  recentSearches(since: number, limit: number): Promise<LoggedList[]>;
}
