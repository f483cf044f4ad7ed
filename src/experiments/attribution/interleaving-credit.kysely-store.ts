import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { CLICK_ACTION, creditClicks, type ShownList } from '../interleaving/index.js';
import { interleavedFromRow } from '../model/interleaved-query.kysely-store.js';
import type { InterleavedQueryRecord } from '../model/interleaved-query.store.js';
import type { AttributableItem } from '../model/attribution-records.js';
import { keyBatches } from '../../storage/batch-write.js';

const listKey = (unitId: string, queryId: string) => JSON.stringify([unitId, queryId]);

export function toShownList(r: InterleavedQueryRecord): ShownList {
  return {
    teams: r.teams,
    depth: r.depth,
    recordedAt: r.recordedAt,
    results: r.results.map(([resultId, team], i) => ({ resultId, team: r.teams[team]!, rank: i + 1 })),
  };
}

/**
 * Interleaving's share of attribution, in the same transaction that marks the items attributed
 * (so each click is credited exactly once): the batch's clicks whose (session, queryId) has a
 * recorded interleaved list are folded into that list's credit by the credit rules of
 * experiments/interleaving (clicks on results not shown, below depth, repeated, or received before
 * the list was recorded are ignored and counted in the credit).
 */
export async function creditInterleavedClicks(
  trx: Transaction<Database>,
  items: readonly AttributableItem[],
  resultIds: ReadonlyMap<string, string | null>,
): Promise<void> {
  const clicks = items.filter((i) => i.userAction === CLICK_ACTION);
  if (clicks.length === 0) return;
  const byList = new Map<string, AttributableItem[]>();
  for (const c of clicks) {
    const key = listKey(c.sessionId, c.queryId);
    byList.set(key, [...(byList.get(key) ?? []), c]);
  }
  const units = [...new Set(clicks.map((c) => c.sessionId))];
  const queries = [...new Set(clicks.map((c) => c.queryId))];
  // One slice of units at a time: each slice's rows are credited before the next is read.
  await keyBatches(
    units,
    async (unitIds) => {
      const rows = await trx
        .selectFrom('interleaved_queries')
        .selectAll()
        .where('unit_id', 'in', unitIds)
        .where('query_id', 'in', queries)
        .execute();
      for (const row of rows) {
        const events = byList.get(listKey(row.unit_id, row.query_id));
        if (!events) continue;
        const record = interleavedFromRow(row);
        const credit = creditClicks(
          toShownList(record),
          events.map((e) => ({ resultId: resultIds.get(e.id) ?? null, userAction: e.userAction, receivedAt: e.receivedAt })),
          record.credit ?? undefined,
        );
        await trx
          .updateTable('interleaved_queries')
          .set({ credit: JSON.stringify(credit) })
          .where('experiment_id', '=', row.experiment_id)
          .where('phase', '=', row.phase)
          .where('unit_id', '=', row.unit_id)
          .where('query_id', '=', row.query_id)
          .execute();
      }
    },
    queries.length,
  );
}
