import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { eventTimeWindowPage } from '../../storage/event-time-page.js';
import { pickFeedbackFields } from '../../storage/tables/feedback-row.js';
import { ACTIONS } from '../../vocabulary/index.js';
import type { FeedbackRow } from './runs/feedback-columns.js';
import type { FeedbackCursor, TrainingDataStore } from './training-data.store.js';

/** What a training run reads of each item (the cursor's id, then FeedbackRow's fields). */
const COLUMNS = [
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
] as const;

export class KyselyTrainingDataStore implements TrainingDataStore {
  constructor(private readonly db: Kysely<Database>) {}

  async readPage(window: { start: number; end: number }, after: FeedbackCursor | undefined, limit: number) {
    const rows = await eventTimeWindowPage(this.db.selectFrom('feedback_items').select(COLUMNS), window, after, limit).execute();
    const last = rows[rows.length - 1];
    return {
      rows: rows.map((r): FeedbackRow => {
        const { id: _cursor, userAction, extraMetadata, ...fields } = pickFeedbackFields(r, COLUMNS);
        return { ...fields, action: userAction, extra: extraMetadata };
      }),
      last: last ? { eventTime: last.event_time, id: last.id } : undefined,
    };
  }

  async hasImpressions(window: { start: number; end: number }): Promise<boolean> {
    const row = await this.db
      .selectFrom('feedback_items')
      .select('id')
      .where('event_time', '>=', window.start)
      .where('event_time', '<', window.end)
      .where('user_action', '=', ACTIONS.impression)
      .where('query_hash', 'is not', null)
      .where('position', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
