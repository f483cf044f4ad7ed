import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { fromFeedbackRow, toFeedbackRow } from '../storage/tables/feedback-row.js';
import type { FeedbackFilter, FeedbackRecord, FeedbackStore, IdempotencyRecord, NewSubmission } from './feedback.store.js';
import { insertBatches } from '../storage/batch-write.js';

export class KyselyFeedbackStore implements FeedbackStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findIdempotencyRecord(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      scope: row.scope,
      key: row.key,
      requestHash: row.request_hash,
      statusCode: row.status_code,
      responseBody: row.response_body,
      createdAt: row.created_at,
    };
  }

  async insertSubmissions(batch: NewSubmission[]): Promise<('inserted' | 'duplicate-key')[]> {
    return this.db.transaction().execute(async (trx) => {
      const keyed = batch.filter((b) => b.idempotency);
      const keyRows = keyed.map(({ idempotency: k, submission }) => ({
        scope: k!.scope,
        key: k!.key,
        request_hash: k!.requestHash,
        status_code: k!.statusCode,
        response_body: k!.responseBody,
        created_at: k!.createdAt,
        // So that erasing the session also forgets keys a client derived from it.
        session_id: submission.sessionId,
      }));
      // ON CONFLICT DO NOTHING + RETURNING names the keys this transaction took; a concurrent
      // twin elsewhere blocks on the key until that transaction ends, then is skipped.
      const taken = await insertBatches(keyRows, (rows) =>
        trx
          .insertInto('idempotency_keys')
          .values(rows)
          .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
          .returning(['key', 'request_hash', 'response_body'])
          .execute(),
      );
      const won = new Set(taken.map((r) => `${r.key}\u0000${r.response_body}`));
      const outcomes = batch.map(({ idempotency: k }) => {
        if (!k) return 'inserted' as const;
        // Within one batch the same key can appear twice: only the entry whose answer was stored wins.
        const token = `${k.key}\u0000${k.responseBody}`;
        if (!won.has(token)) return 'duplicate-key' as const;
        won.delete(token);
        return 'inserted' as const;
      });
      const accepted = batch.filter((_, i) => outcomes[i] === 'inserted');
      const submissions = accepted.map(({ submission: s }) => ({
        id: s.id,
        session_id: s.sessionId,
        item_count: s.itemCount,
        received_at: s.receivedAt,
      }));
      await insertBatches(submissions, (rows) => trx.insertInto('feedback_submissions').values(rows).execute());
      const items = accepted.flatMap((a) => a.items).map(toFeedbackRow);
      await insertBatches(items, (rows) => trx.insertInto('feedback_items').values(rows).execute());
      return outcomes;
    });
  }

  async getSubmission(id: string) {
    const submission = await this.db.selectFrom('feedback_submissions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!submission) return undefined;
    const rows = await this.db.selectFrom('feedback_items').selectAll().where('submission_id', '=', id).orderBy('seq').execute();
    return {
      submission: {
        id: submission.id,
        sessionId: submission.session_id,
        itemCount: submission.item_count,
        receivedAt: submission.received_at,
      },
      items: rows.map(fromFeedbackRow),
    };
  }

  async listItems(filter: FeedbackFilter, limit: number): Promise<FeedbackRecord[]> {
    let query = this.db.selectFrom('feedback_items').selectAll();
    if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
    if (filter.queryId !== undefined) query = query.where('query_id', '=', filter.queryId);
    if (filter.since !== undefined) query = query.where('event_time', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('event_time', '<', filter.until);
    if (filter.afterId !== undefined) query = query.where('id', filter.newestFirst ? '<' : '>', filter.afterId);
    const rows = await query
      .orderBy('id', filter.newestFirst ? 'desc' : 'asc')
      .limit(limit)
      .execute();
    return rows.map(fromFeedbackRow);
  }

  async deleteSession(sessionId: string): Promise<{ items: number; submissions: number }> {
    return this.db.transaction().execute(async (trx) => {
      const items = await trx.deleteFrom('feedback_items').where('session_id', '=', sessionId).executeTakeFirst();
      const submissions = await trx.deleteFrom('feedback_submissions').where('session_id', '=', sessionId).executeTakeFirst();
      return { items: Number(items.numDeletedRows), submissions: Number(submissions.numDeletedRows) };
    });
  }

  async deleteIdempotencyRecordsBefore(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
