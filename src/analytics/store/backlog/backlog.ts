import type { Kysely, Transaction } from 'kysely';
import type { DatabaseCapabilities } from '../../../storage/database.js';
import type { Database } from '../../../storage/schema.js';
import type { BacklogPosition, ClaimedItem } from './claimed-item.js';
import { RowidBacklog } from './rowid.kysely-store.js';
import { SnapshotBacklog } from './snapshot.kysely-store.js';

/**
 * Which feedback items the analytics fold has not folded yet, and how a fold records that it has.
 * Both databases follow a position in analytics_progress, moved in the fold's transaction, so
 * ingestion keeps no backlog of its own and the fold rewrites no feedback row:
 *
 * - SQLite (capabilities.commitOrderedRowids): the rowid folded through (analytics-rowid-backlog).
 * - PostgreSQL, whose writers commit out of key order: windows between two snapshots over each
 *   row's inserting transaction (analytics-snapshot-backlog).
 *
 * This file is the backlog's one entry: the interface each database's backlog implements, and the
 * function that picks one.
 */
export interface Backlog<P extends BacklogPosition = BacklogPosition> {
  /** Up to `limit` unfolded items, in the order they are folded, and the position past them. */
  claim(db: Kysely<Database>, limit: number): Promise<{ items: ClaimedItem[]; next: P }>;
  /** Records the position a claim returned, in the fold's transaction, once its items are folded. */
  markFolded(trx: Transaction<Database>, next: P): Promise<void>;
  /**
   * Whether the backlog is still where the claim that returned `next` read it, for a claim made
   * before the fold's transaction (SQLite's read-first fold).
   */
  unmoved(trx: Transaction<Database>, next: P): Promise<boolean>;
  /** How many items wait to be folded. */
  size(db: Kysely<Database>): Promise<number>;
}

/** The backlog of the database with these capabilities. */
export function analyticsBacklog(capabilities: Pick<DatabaseCapabilities, 'commitOrderedRowids'>): Backlog {
  return capabilities.commitOrderedRowids ? new RowidBacklog() : new SnapshotBacklog();
}
