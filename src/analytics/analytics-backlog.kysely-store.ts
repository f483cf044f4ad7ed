import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseCapabilities } from '../storage/database.js';
import { FixedChunks } from '../storage/fixed-chunks.js';
import type { Database } from '../storage/schema.js';
import { markDone } from './analytics-fold-statements.kysely-store.js';
import { recognisedKeys, type AnalyticsItem } from './fold.js';

/**
 * Which feedback items the analytics fold has not folded yet, and how a fold records that it has:
 *
 * - SQLite (capabilities.commitOrderedRowids): a cursor, analytics_progress.folded_through, the
 *   rowid folded through. The fold claims rowids above it, and advances it in its transaction.
 *   Ingestion keeps no backlog index and the fold updates no feedback row (migration 0085). When the
 *   newest rows are deleted, later rows may take their rowids again: each such deletion leaves a
 *   rewind (feedback_rowid_rewinds), and the cursor moves back to it before the next claim.
 * - PostgreSQL: the per-item flag feedback_items.analytics_done and its partial index, because
 *   concurrent transactions commit out of id order and a cursor would pass items still uncommitted.
 */

export type ClaimedItem = AnalyticsItem & { receivedAt: number; rowid: number };

/** Where a batch was read from: the cursor after any rewinds, and the last rewind followed. */
export interface BacklogPosition {
  foldedThrough: number;
  rewindsThrough: number;
}

type Db = Kysely<Database>;

const ITEM_COLUMNS = [
  'id',
  'session_id',
  'query_id',
  'query_hash',
  'result_id',
  'user_action',
  'event_time',
  'position',
  'device_type',
  'search_type',
  'language',
  'category',
  'extra_metadata',
  'received_at',
] as const;

export class AnalyticsBacklog {
  private readonly chunks: FixedChunks;

  constructor(private readonly capabilities: Pick<DatabaseCapabilities, 'commitOrderedRowids' | 'supportsArrayParameters'>) {
    this.chunks = new FixedChunks(capabilities);
  }

  /** Up to `limit` unfolded items, in the order they are folded, and where they were read from. */
  async claim(db: Db, limit: number): Promise<{ items: ClaimedItem[]; position: BacklogPosition | null }> {
    if (!this.capabilities.commitOrderedRowids) {
      const rows = await db
        .selectFrom('feedback_items')
        .select(ITEM_COLUMNS)
        .where('analytics_done', '=', 0)
        .orderBy('id')
        .limit(limit)
        .execute();
      return { items: rows.map((r) => toItem(r, 0)), position: null };
    }
    const position = await this.position(db);
    const rows = await db
      .selectFrom('feedback_items')
      .select([...ITEM_COLUMNS, sql<number>`rowid`.as('rowid')])
      .where(sql.ref('rowid'), '>', position.foldedThrough)
      // Folded before migration 0085 (by the flag, in id order): skipped, not folded again.
      .where('analytics_done', '=', 0)
      .orderBy(sql.ref('rowid'))
      .limit(limit)
      .execute();
    return { items: rows.map((r) => toItem(r, Number(r.rowid))), position };
  }

  /** Records the batch folded, in the fold's transaction. */
  async markFolded(trx: Transaction<Database>, items: readonly ClaimedItem[], position: BacklogPosition | null): Promise<void> {
    if (position === null) {
      await this.chunks.runKeys(
        trx,
        markDone,
        items.map((i) => i.id),
      );
      return;
    }
    const last = items.length > 0 ? items[items.length - 1]!.rowid : position.foldedThrough;
    await trx
      .updateTable('analytics_progress')
      .set({ folded_through: last, rewinds_through: position.rewindsThrough })
      .where('id', '=', 1)
      .execute();
  }

  /** How many items wait to be folded. */
  async size(db: Db): Promise<number> {
    let query = db
      .selectFrom('feedback_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('analytics_done', '=', 0);
    if (this.capabilities.commitOrderedRowids) query = query.where(sql.ref('rowid'), '>', (await this.position(db)).foldedThrough);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The cursor moved back below every rewind not followed yet, and below the table's end: rows
   * above the end are gone, and the rowids past it will be given to new rows.
   */
  private async position(db: Db): Promise<BacklogPosition> {
    const row = await db
      .selectFrom('analytics_progress')
      .select([
        'folded_through',
        'rewinds_through',
        (eb) =>
          eb
            .selectFrom('feedback_rowid_rewinds')
            .select((r) => r.fn.min('ends_at').as('e'))
            .whereRef('seq', '>', 'analytics_progress.rewinds_through')
            .as('rewind_to'),
        (eb) =>
          eb
            .selectFrom('feedback_rowid_rewinds')
            .select((r) => r.fn.max('seq').as('s'))
            .as('last_rewind'),
        () => sql<number | null>`(select max(rowid) from feedback_items)`.as('table_end'),
      ])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    let foldedThrough = Number(row.folded_through ?? 0);
    if (row.rewind_to !== null) foldedThrough = Math.min(foldedThrough, Number(row.rewind_to));
    foldedThrough = Math.min(foldedThrough, Number(row.table_end ?? 0));
    return { foldedThrough, rewindsThrough: Math.max(Number(row.rewinds_through), Number(row.last_rewind ?? 0)) };
  }
}

function toItem(r: { [K in (typeof ITEM_COLUMNS)[number]]: unknown } & Record<string, unknown>, rowid: number): ClaimedItem {
  return {
    id: r.id as string,
    sessionId: r.session_id as string,
    queryId: r.query_id as string,
    queryHash: r.query_hash as string | null,
    resultId: r.result_id as string | null,
    userAction: r.user_action as string | null,
    eventTime: Number(r.event_time),
    position: r.position as number | null,
    deviceType: r.device_type as string | null,
    searchType: r.search_type as string | null,
    language: r.language as string | null,
    category: r.category as string | null,
    ...recognisedKeys(r.extra_metadata as string | null),
    receivedAt: Number(r.received_at),
    rowid,
  };
}
