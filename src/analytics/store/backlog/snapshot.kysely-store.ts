import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../storage/schema.js';
import type { Backlog } from './backlog.js';
import { ITEM_COLUMNS, toItem, type ClaimedItem, type SnapshotPosition } from './claimed-item.js';

/**
 * PostgreSQL's analytics backlog (migration 0095 explains the scheme): windows between two snapshots.
 * A window holds the rows whose inserting transaction (feedback_items.analytics_xid) is visible in
 * its end snapshot and was not in its start. The fold works through a window in (analytics_xid, id)
 * order, a batch at a time; when a window runs out, its end becomes the next window's start.
 *
 * Transactions that run meanwhile, on this schema or any other, only delay the rows they insert to
 * the window in which they have committed; no horizon waits for them.
 */

type Db = Kysely<Database>;

export class SnapshotBacklog implements Backlog<SnapshotPosition> {
  /**
   * Up to `limit` items of the open window, or of a new one opened now. A window opened by an
   * earlier call that runs out here is followed by a new one, so a claim that returns fewer than
   * `limit` items has taken everything committed before it started (the fold's freshness).
   */
  async claim(db: Db, limit: number): Promise<{ items: ClaimedItem[]; next: SnapshotPosition }> {
    let position = await this.position(db);
    const items: ClaimedItem[] = [];
    for (;;) {
      const openedHere = position.window === null;
      if (position.window === null) {
        const { rows } = await sql<{ s: string }>`select pg_current_snapshot()::text as s`.execute(db);
        position = { ...position, window: rows[0]!.s, xid: null, id: null };
      }
      const wanted = limit - items.length;
      const rows = await this.windowRows(db, position, wanted);
      for (const r of rows) items.push(toItem(r));
      const last = rows[rows.length - 1];
      if (rows.length === wanted && last !== undefined) return { items, next: { ...position, xid: last.xid, id: last.id } };
      position = { kind: 'snapshot', folded: position.window!, window: null, xid: null, id: null };
      if (openedHere) return { items, next: position };
    }
  }

  async markFolded(trx: Transaction<Database>, next: SnapshotPosition): Promise<void> {
    await trx
      .updateTable('analytics_progress')
      .set({
        folded_snapshot: sql`${next.folded}::pg_snapshot`,
        window_snapshot: next.window === null ? null : sql`${next.window}::pg_snapshot`,
        folded_xid: next.xid === null ? null : sql`${next.xid}::xid8`,
        folded_id: next.id,
      })
      .where('id', '=', 1)
      .execute();
  }

  /** PostgreSQL claims inside the fold's transaction: a claim made before it is never trusted. */
  unmoved(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Rows not folded yet: not visible in the start snapshot, and not passed in the open window. */
  async size(db: Db): Promise<number> {
    const p = await this.position(db);
    let query = db
      .selectFrom('feedback_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      // Every transaction below the start's xmin is visible in it: the index bounds the count.
      .where(sql<boolean>`analytics_xid >= pg_snapshot_xmin(${p.folded}::pg_snapshot)`)
      .where(sql<boolean>`not pg_visible_in_snapshot(analytics_xid, ${p.folded}::pg_snapshot)`);
    if (p.window !== null && p.xid !== null) {
      query = query.where(
        sql<boolean>`not (pg_visible_in_snapshot(analytics_xid, ${p.window}::pg_snapshot) and (analytics_xid, id) <= (${p.xid}::xid8, ${p.id}))`,
      );
    }
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The window's next `limit` rows past (xid, id). Every row of the window has an xid at or above
   * the start snapshot's xmin, most at or above its xmax; the scan starts at the lowest xid that
   * holds one (found by index probes of the start's running transactions), so an unrelated
   * long-running transaction, which keeps xmin low, does not make each window rescan what earlier
   * windows folded.
   */
  private async windowRows(db: Db, p: SnapshotPosition, limit: number) {
    let from = p.xid === null ? null : { xid: p.xid, id: p.id! };
    if (from === null) {
      const { rows } = await sql<{ xid: string }>`
        select coalesce(
          (select min(analytics_xid) from feedback_items
            where analytics_xid = any(array(select pg_snapshot_xip(${p.folded}::pg_snapshot)))
              and pg_visible_in_snapshot(analytics_xid, ${p.window}::pg_snapshot)),
          pg_snapshot_xmax(${p.folded}::pg_snapshot))::text as xid`.execute(db);
      // Ids are never empty: (xid, '') is before every row of that transaction.
      from = { xid: rows[0]!.xid, id: '' };
    }
    // The planner's statistics never cover the newest transaction ids (the table's ascending-key
    // problem), so it expects a handful of rows here and reads the whole rest of the window to sort
    // it, in every batch. Without sorts it walks each partition's (analytics_xid, id) index in order
    // and stops at `limit`. Only this statement: the setting is put back right after.
    await sql`set local enable_sort = off`.execute(db);
    const rows = await db
      .selectFrom('feedback_items')
      .select([...ITEM_COLUMNS, sql<string>`analytics_xid::text`.as('xid')])
      .where(sql<boolean>`(analytics_xid, id) > (${from.xid}::xid8, ${from.id})`)
      .where(sql<boolean>`analytics_xid < pg_snapshot_xmax(${p.window}::pg_snapshot)`)
      .where(sql<boolean>`pg_visible_in_snapshot(analytics_xid, ${p.window}::pg_snapshot)`)
      .where(sql<boolean>`not pg_visible_in_snapshot(analytics_xid, ${p.folded}::pg_snapshot)`)
      .orderBy(sql`analytics_xid`)
      .orderBy('id')
      .limit(limit)
      .execute();
    await sql`set local enable_sort to default`.execute(db);
    return rows;
  }

  private async position(db: Db): Promise<SnapshotPosition> {
    const row = await db
      .selectFrom('analytics_progress')
      .select([
        sql<string>`folded_snapshot::text`.as('folded'),
        sql<string | null>`window_snapshot::text`.as('window'),
        sql<string | null>`folded_xid::text`.as('xid'),
        'folded_id',
      ])
      .where('id', '=', 1)
      .executeTakeFirst();
    // No progress row yet (a fresh schema before its first fold): nothing is folded.
    if (row === undefined) return { kind: 'snapshot', folded: '1:1:', window: null, xid: null, id: null };
    return { kind: 'snapshot', folded: row.folded, window: row.window, xid: row.xid, id: row.folded_id };
  }
}
