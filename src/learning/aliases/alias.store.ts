import type { AliasTarget } from '../../vocabulary/index.js';

export type { AliasTarget };

/**
 * A named pointer at a model: a fixed version, or (version null) whatever version is active; or,
 * once cleared (modelId null), nothing: the search engine's original order.
 */
export interface AliasRecord {
  alias: string;
  modelId: string | null;
  version: number | null;
  updatedAt: number;
  updatedBy: string;
  /** The latest move's reason and the experiment whose conclusion made it, if one did. */
  reason: string | null;
  experimentId: string | null;
}

/** One move of an alias, kept forever: who, when, from where to where, and why. */
export interface AliasEvent {
  id: string;
  alias: string;
  at: number;
  actor: string;
  /** null: the alias served the engine's original order before (cleared, or new). */
  from: AliasTarget | null;
  /** null: cleared to the engine's original order. */
  to: AliasTarget | null;
  reason: string | null;
  experimentId: string | null;
}

/** A move to write: the alias's new target and the event recording it. */
export interface AliasChange {
  record: AliasRecord;
  event: Omit<AliasEvent, 'from'>;
}

export interface AliasStore {
  get(alias: string): Promise<AliasRecord | undefined>;
  /** Alphabetical, after `afterAlias` when given. */
  list(afterAlias: string | undefined, limit: number): Promise<AliasRecord[]>;
  /**
   * Points the alias at the new target and appends the event, in one transaction; the event's
   * `from` is the target it replaced (null for a new alias). Returns the event as written.
   */
  move(change: AliasChange): Promise<AliasEvent>;
  /** Oldest first, after `afterId` when given. */
  listEvents(alias: string, afterId: string | undefined, limit: number): Promise<AliasEvent[]>;
}
