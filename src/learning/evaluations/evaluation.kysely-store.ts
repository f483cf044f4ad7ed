import type { Kysely, Selectable } from 'kysely';
import { ACTIONS } from '../../vocabulary/index.js';
import { newestFirstPage } from '../../storage/newest-first.js';
import type { Database } from '../../storage/schema.js';
import { eventTimeWindowPage } from '../../storage/event-time-page.js';
import type { OfflineEvaluationTable } from '../../storage/tables/learning.js';
import type { EvaluationRecord, EvaluationStatus, EvaluationStore, WindowCursor, WindowRow } from './evaluation.store.js';

function fromRow(r: Selectable<OfflineEvaluationTable>): EvaluationRecord {
  return {
    id: r.id,
    name: r.name,
    status: r.status as EvaluationStatus,
    progress: Number(r.progress),
    request: r.request,
    result: r.result,
    error: r.error,
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    heartbeatAt: Number(r.heartbeat_at),
    createdBy: r.created_by,
    candidateModelId: r.candidate_model_id,
    candidateVersion: r.candidate_version,
  };
}

export class KyselyEvaluationStore implements EvaluationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: EvaluationRecord): Promise<void> {
    await this.db
      .insertInto('offline_evaluations')
      .values({
        id: e.id,
        name: e.name,
        status: e.status,
        progress: e.progress,
        request: e.request,
        result: e.result,
        error: e.error,
        created_at: e.createdAt,
        finished_at: e.finishedAt,
        heartbeat_at: e.heartbeatAt,
        created_by: e.createdBy,
        candidate_model_id: e.candidateModelId,
        candidate_version: e.candidateVersion,
      })
      .execute();
  }

  async setProgress(id: string, progress: number, at: number): Promise<void> {
    await this.db
      .updateTable('offline_evaluations')
      .set({ progress, heartbeat_at: at })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async finish(id: string, outcome: { status: 'done'; result: string } | { status: 'failed'; error: string }, at: number) {
    await this.db
      .updateTable('offline_evaluations')
      .set(
        outcome.status === 'done'
          ? { status: 'done', progress: 1, result: outcome.result, finished_at: at }
          : { status: 'failed', error: outcome.error, finished_at: at },
      )
      .where('id', '=', id)
      .execute();
  }

  async get(id: string): Promise<EvaluationRecord | undefined> {
    const row = await this.db.selectFrom('offline_evaluations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(filter: { modelId?: string; after?: { createdAt: number; id: string } }, limit: number): Promise<EvaluationRecord[]> {
    const query = this.db
      .selectFrom('offline_evaluations')
      .selectAll()
      .$if(filter.modelId !== undefined, (q) => q.where('candidate_model_id', '=', filter.modelId as string));
    return (await newestFirstPage(query, filter.after, limit).execute()).map(fromRow);
  }

  async listDoneWithModel(): Promise<EvaluationRecord[]> {
    const rows = await this.db
      .selectFrom('offline_evaluations')
      .selectAll()
      .where('status', '=', 'done')
      .where('candidate_model_id', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async countSearches(window: { start: number; end: number }, receivedBefore?: number): Promise<number> {
    const row = await this.db
      .selectFrom('feedback_items')
      .select((eb) => eb.fn.count<string>('query_id').distinct().as('n'))
      .where('event_time', '>=', window.start)
      .where('event_time', '<', window.end)
      .where('user_action', '=', ACTIONS.impression)
      .$if(receivedBefore !== undefined, (q) => q.where('received_at', '<', receivedBefore!))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async readWindowPage(window: { start: number; end: number }, after: WindowCursor | undefined, limit: number) {
    const rows = await eventTimeWindowPage(
      this.db
        .selectFrom('feedback_items')
        .select([
          'id',
          'query_id',
          'session_id',
          'query_hash',
          'result_id',
          'position',
          'user_action',
          'dwell_time',
          'device_type',
          'extra_metadata',
          'event_time',
        ]),
      window,
      after,
      limit,
    ).execute();
    const last = rows[rows.length - 1];
    return {
      rows: rows.map((r): WindowRow => ({
        queryId: r.query_id,
        sessionId: r.session_id,
        queryHash: r.query_hash,
        resultId: r.result_id,
        position: r.position === null ? null : Number(r.position),
        action: r.user_action,
        dwellTime: r.dwell_time === null ? null : Number(r.dwell_time),
        deviceType: r.device_type,
        extra: r.extra_metadata,
        eventTime: Number(r.event_time),
      })),
      last: last ? { eventTime: Number(last.event_time), id: last.id } : undefined,
    };
  }
}
