import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../storage/schema.js';
import type { Backlog } from './backlog.js';
import { ITEM_COLUMNS, toItem, type ClaimedItem, type RowidPosition } from './claimed-item.js';

/**
 * SQLite's analytics backlog (capabilities.commitOrderedRowids): analytics_progress.folded_through,
 * the rowid folded through (migration 0085). With one writer at a time a new row's rowid is above
 * every committed one, so the fold claims rowids above the cursor. When the newest rows are deleted,
 * later rows may take their rowids again: each such deletion leaves a rewind
 * (feedback_rowid_rewinds), and the cursor moves back to it before the next claim.
 */

type Db = Kysely<Database>;

export class RowidBacklog implements Backlog<RowidPosition> {
  async claim(db: Db, limit: number): Promise<{ items: ClaimedItem[]; next: RowidPosition }> {
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
    const last = rows[rows.length - 1];
    return { items: rows.map(toItem), next: last === undefined ? position : { ...position, foldedThrough: Number(last.rowid) } };
  }

  async markFolded(trx: Transaction<Database>, next: RowidPosition): Promise<void> {
    await trx
      .updateTable('analytics_progress')
      .set({ folded_through: next.foldedThrough, rewinds_through: next.rewindsThrough })
      .where('id', '=', 1)
      .execute();
  }

  /** Whether the cursor is still where the claim that returned `next` read it (no fold since). */
  async unmoved(trx: Transaction<Database>, next: RowidPosition): Promise<boolean> {
    const row = await trx
      .selectFrom('analytics_progress')
      .select(['folded_through', 'rewinds_through'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const foldedThrough = row.folded_through === null ? null : Number(row.folded_through);
    return foldedThrough === next.stored.foldedThrough && Number(row.rewinds_through) === next.stored.rewindsThrough;
  }

  async size(db: Db): Promise<number> {
    const row = await db
      .selectFrom('feedback_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(sql.ref('rowid'), '>', (await this.position(db)).foldedThrough)
      .where('analytics_done', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The rowid cursor moved back below every rewind not followed yet, and below the table's end:
   * rows above the end are gone, and the rowids past it will be given to new rows.
   */
  private async position(db: Db): Promise<RowidPosition> {
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
    return {
      kind: 'rowid',
      foldedThrough,
      rewindsThrough: Math.max(Number(row.rewinds_through), Number(row.last_rewind ?? 0)),
      stored: {
        foldedThrough: row.folded_through === null ? null : Number(row.folded_through),
        rewindsThrough: Number(row.rewinds_through),
      },
    };
  }
}
