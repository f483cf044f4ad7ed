import type { Kysely, Transaction } from 'kysely';
import type { DatabaseCapabilities } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { BacklogPosition, ClaimedItem } from './analytics-backlog-items.js';
import { RowidBacklog } from './analytics-rowid-backlog.kysely-store.js';
import { SnapshotBacklog } from './analytics-snapshot-backlog.kysely-store.js';

/**
 * Which feedback items the analytics fold has not folded yet, and how a fold records that it has.
 * Both databases follow a position in analytics_progress, moved in the fold's transaction, so
 * ingestion keeps no backlog of its own and the fold rewrites no feedback row:
 *
 * - SQLite (capabilities.commitOrderedRowids): the rowid folded through (analytics-rowid-backlog).
 * - PostgreSQL, whose writers commit out of key order: windows between two snapshots over each
 *   row's inserting transaction (analytics-snapshot-backlog).
 */
export class AnalyticsBacklog {
  private readonly rowids: RowidBacklog | null;
  private readonly snapshots: SnapshotBacklog | null;

  constructor(capabilities: Pick<DatabaseCapabilities, 'commitOrderedRowids'>) {
    this.rowids = capabilities.commitOrderedRowids ? new RowidBacklog() : null;
    this.snapshots = capabilities.commitOrderedRowids ? null : new SnapshotBacklog();
  }

  /** Up to `limit` unfolded items, in the order they are folded, and the position past them. */
  claim(db: Kysely<Database>, limit: number): Promise<{ items: ClaimedItem[]; next: BacklogPosition }> {
    return this.rowids ? this.rowids.claim(db, limit) : this.snapshots!.claim(db, limit);
  }

  /** Records the position a claim returned, in the fold's transaction, once its items are folded. */
  markFolded(trx: Transaction<Database>, next: BacklogPosition): Promise<void> {
    return next.kind === 'rowid' ? this.rowids!.markFolded(trx, next) : this.snapshots!.markFolded(trx, next);
  }

  /**
   * Whether the backlog is still where the claim that returned `next` read it (a claim made before
   * the fold's transaction, SQLite's read-first fold). PostgreSQL claims inside the transaction: false.
   */
  unmoved(trx: Transaction<Database>, next: BacklogPosition): Promise<boolean> {
    return next.kind === 'rowid' ? this.rowids!.unmoved(trx, next) : Promise.resolve(false);
  }

  /** How many items wait to be folded. */
  size(db: Kysely<Database>): Promise<number> {
    return this.rowids ? this.rowids.size(db) : this.snapshots!.size(db);
  }
}
