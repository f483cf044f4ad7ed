import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';

type Keyed = { t: { event_time: number; id: string } };

/**
 * Feedback items of a window [start, end) in event-time order, a page at a time: rows strictly
 * after `after` in (event_time, id), at most `limit`. Training and offline evaluation read windows so.
 */
export function eventTimeWindowPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  window: { start: number; end: number },
  after: { eventTime: number; id: string } | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  let q = query as unknown as SelectQueryBuilder<Keyed, 't', O>;
  q = q.where('event_time', '>=', window.start).where('event_time', '<', window.end);
  if (after) {
    q = q.where((e: ExpressionBuilder<Keyed, 't'>) =>
      e.or([e('event_time', '>', after.eventTime), e.and([e('event_time', '=', after.eventTime), e('id', '>', after.id)])]),
    );
  }
  return q.orderBy('event_time').orderBy('id').limit(limit) as unknown as SelectQueryBuilder<DB, TB, O>;
}
