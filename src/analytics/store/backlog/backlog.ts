import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../storage/schema.js';
import type { BacklogPosition, ClaimedItem } from './claimed-item.js';

/**
 * Which feedback items the analytics fold has not folded yet, and how a fold records that it has.
 * Both databases follow a position in analytics_progress, moved in the fold's transaction, so
 * ingestion keeps no backlog of its own and the fold rewrites no feedback row:
 *
 * - SQLite (capabilities.commitOrderedRowids): the rowid folded through (rowid.kysely-store.ts).
 * - PostgreSQL, whose writers commit out of key order: windows between two snapshots over each
 *   row's inserting transaction (snapshot.kysely-store.ts).
 *
 * This file is the interface each database's backlog implements; backlog-for.ts picks one.
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
