import type { Kysely, Selectable } from 'kysely';
import { ACTIONS } from '../../vocabulary/index.js';
import type { Database } from '../../storage/schema.js';
import type { ExplorationListTable } from '../../storage/tables/experiments.js';
import type { ExplorationChange, ExplorationSettings, ExplorationStore, ExploredList, LoggedList } from './exploration.store.js';

const SETTINGS_ID = 'rank';
/** Impression rows read to rebuild the latest searches: enough for a few hundred lists of ten. */
const IMPRESSION_ROWS = 20_000;

const fromList = (r: Selectable<ExplorationListTable>): ExploredList => ({
  unitId: r.unit_id,
  queryId: r.query_id,
  queryHash: r.query_hash,
  resultIds: JSON.parse(r.list) as string[],
  swapped: [Number(r.swapped_from), Number(r.swapped_to)],
  propensity: Number(r.propensity),
  share: Number(r.share),
  recordedAt: Number(r.recorded_at),
});

export class KyselyExplorationStore implements ExplorationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async settings(): Promise<ExplorationSettings | null> {
    const r = await this.db.selectFrom('rank_exploration_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
    if (!r) return null;
    return {
      share: Number(r.share),
      depth: Number(r.depth),
      method: r.method as ExplorationSettings['method'],
      enabledAt: r.enabled_at === null ? null : Number(r.enabled_at),
      updatedAt: Number(r.updated_at),
      updatedBy: r.updated_by,
    };
  }

  async save(change: ExplorationChange): Promise<void> {
    const s = change.after;
    const row = {
      share: s.share,
      depth: s.depth,
      method: s.method,
      enabled_at: s.enabledAt,
      updated_at: s.updatedAt,
      updated_by: s.updatedBy,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('rank_exploration_settings')
        .values({ id: SETTINGS_ID, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      await trx
        .insertInto('rank_exploration_events')
        .values({
          id: change.id,
          at: change.at,
          actor: change.actor,
          before: change.before === null ? null : JSON.stringify(change.before),
          after: JSON.stringify(change.after),
        })
        .execute();
    });
  }

  async changes(limit: number): Promise<ExplorationChange[]> {
    const rows = await this.db
      .selectFrom('rank_exploration_events')
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      at: Number(r.at),
      actor: r.actor,
      before: r.before === null ? null : (JSON.parse(r.before) as ExplorationSettings),
      after: JSON.parse(r.after) as ExplorationSettings,
    }));
  }

  async record(list: ExploredList): Promise<boolean> {
    const result = await this.db
      .insertInto('exploration_lists')
      .values({
        unit_id: list.unitId,
        query_id: list.queryId,
        query_hash: list.queryHash,
        list: JSON.stringify(list.resultIds),
        swapped_from: list.swapped[0],
        swapped_to: list.swapped[1],
        propensity: list.propensity,
        share: list.share,
        recorded_at: list.recordedAt,
      })
      .onConflict((oc) => oc.columns(['unit_id', 'query_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async countSince(since: number): Promise<number> {
    const r = await this.db
      .selectFrom('exploration_lists')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('recorded_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async listSince(since: number, limit: number): Promise<ExploredList[]> {
    const rows = await this.db
      .selectFrom('exploration_lists')
      .selectAll()
      .where('recorded_at', '>=', since)
      .orderBy('recorded_at')
      .orderBy('unit_id')
      .orderBy('query_id')
      .limit(limit)
      .execute();
    return rows.map(fromList);
  }

  async recentSearches(since: number, limit: number): Promise<LoggedList[]> {
    const rows = await this.db
      .selectFrom('feedback_items')
      .select(['query_id', 'query_hash', 'result_id', 'position'])
      .where('user_action', '=', ACTIONS.impression)
      .where('received_at', '>=', since)
      .where('query_hash', 'is not', null)
      .where('result_id', 'is not', null)
      .where('position', 'is not', null)
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(IMPRESSION_ROWS)
      .execute();
    // Newest search first; a search's impressions may arrive in several submissions, so they are grouped by queryId.
    const searches = new Map<string, { queryHash: string; shown: Map<number, string> }>();
    for (const r of rows) {
      let s = searches.get(r.query_id);
      if (!s) {
        if (searches.size >= limit) continue;
        s = { queryHash: r.query_hash!, shown: new Map() };
        searches.set(r.query_id, s);
      }
      if (!s.shown.has(Number(r.position))) s.shown.set(Number(r.position), r.result_id!);
    }
    return [...searches.values()].map((s) => ({
      queryHash: s.queryHash,
      resultIds: [...s.shown.entries()].sort((a, b) => a[0] - b[0]).map(([, id]) => id),
    }));
  }
}
