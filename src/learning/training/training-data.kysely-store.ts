import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { FeedbackRow } from './runs/feedback-columns.js';
import type { FeedbackCursor, TrainingDataStore } from './training-data.store.js';

export class KyselyTrainingDataStore implements TrainingDataStore {
  constructor(private readonly db: Kysely<Database>) {}

  async readPage(window: { start: number; end: number }, after: FeedbackCursor | undefined, limit: number) {
    const rows = await this.db
      .selectFrom('feedback_items')
      .select([
        'id',
        'query_id',
        'query_hash',
        'result_id',
        'position',
        'user_action',
        'event_time',
        'rating',
        'dwell_time',
        'device_type',
        'search_type',
        'language',
        'category',
        'viewport_width',
        'viewport_height',
        'extra_metadata',
      ])
      .where('event_time', '>=', window.start)
      .where('event_time', '<', window.end)
      .$if(after !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('event_time', '>', (after as FeedbackCursor).eventTime),
            eb.and([eb('event_time', '=', (after as FeedbackCursor).eventTime), eb('id', '>', (after as FeedbackCursor).id)]),
          ]),
        ),
      )
      .orderBy('event_time')
      .orderBy('id')
      .limit(limit)
      .execute();
    const last = rows[rows.length - 1];
    return {
      rows: rows.map((r): FeedbackRow => ({
        queryId: r.query_id,
        queryHash: r.query_hash,
        resultId: r.result_id,
        position: r.position,
        action: r.user_action,
        eventTime: r.event_time,
        rating: r.rating,
        dwellTime: r.dwell_time,
        deviceType: r.device_type,
        searchType: r.search_type,
        language: r.language,
        category: r.category,
        viewportWidth: r.viewport_width,
        viewportHeight: r.viewport_height,
        extra: r.extra_metadata,
      })),
      last: last ? { eventTime: last.event_time, id: last.id } : undefined,
    };
  }
}
