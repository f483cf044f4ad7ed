import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { LOGGED_FEATURES_SCAN, latestFeatures, type LoggedFeaturesStore } from './logged-features.store.js';

/**
 * Reads raw feedback (not the folded aggregates, which keep no features): the query's items in the
 * window through the event-time index, newest first, bounded by LOGGED_FEATURES_SCAN.
 */
export class KyselyLoggedFeaturesStore implements LoggedFeaturesStore {
  constructor(private readonly db: Kysely<Database>) {}

  async latest(queryHash: string, resultIds: readonly string[], window: { from: number; to: number }) {
    if (resultIds.length === 0) return new Map<string, Record<string, number>>();
    const rows = await this.db
      .selectFrom('feedback_items')
      .select(['result_id', 'extra_metadata'])
      .where('query_hash', '=', queryHash)
      .where('event_time', '>=', window.from)
      .where('event_time', '<', window.to)
      .where('result_id', 'in', [...resultIds])
      .where('extra_metadata', 'is not', null)
      .orderBy('event_time', 'desc')
      .orderBy('id', 'desc')
      .limit(LOGGED_FEATURES_SCAN)
      .execute();
    return latestFeatures(rows.map((r) => ({ resultId: r.result_id!, extra: r.extra_metadata! })));
  }
}
