import { sql, type Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { addExcluded } from '../../storage/additive-upsert.js';
import type { QuerySumDelta } from '../model/attribution-records.js';
import { insertBatches } from '../../storage/batch-write.js';

/**
 * In the attribution transaction: the additions to each variant's coverage of a query. Counters add up;
 * last_seen keeps the later time (CASE rather than max()/greatest(), which the two databases spell apart).
 */
export async function writeQuerySums(trx: Transaction<Database>, querySums: QuerySumDelta[]): Promise<void> {
  const rows = querySums.map((q) => ({
    experiment_id: q.experimentId,
    phase: q.phase,
    variant_id: q.variantId,
    query_hash: q.queryHash,
    searches: q.searches,
    clicked_searches: q.clickedSearches,
    last_seen: q.lastSeen,
  }));
  await insertBatches(rows, (slice) =>
    trx
      .insertInto('experiment_query_sums')
      .values(slice)
      .onConflict((oc) =>
        oc.columns(['experiment_id', 'phase', 'variant_id', 'query_hash']).doUpdateSet({
          ...addExcluded('experiment_query_sums', ['searches', 'clicked_searches']),
          last_seen: sql`case when excluded.last_seen > experiment_query_sums.last_seen
            then excluded.last_seen else experiment_query_sums.last_seen end`,
        }),
      )
      .execute(),
  );
}
