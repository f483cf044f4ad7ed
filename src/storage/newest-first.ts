import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { NewestFirstKey } from '../common/pagination.js';

/**
 * Keyset pagination newest first: rows strictly after `after` in (created_at desc, id desc),
 * at most `limit`. Shared by every store that lists by creation time.
 */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  after: NewestFirstKey | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  let q = query;
  if (after) {
    q = q.where((eb: ExpressionBuilder<DB, TB>) => {
      const e = eb as unknown as ExpressionBuilder<{ t: { created_at: number; id: string } }, 't'>;
      return e.or([e('created_at', '<', after.createdAt), e.and([e('created_at', '=', after.createdAt), e('id', '<', after.id)])]) as never;
    });
  }
  return (q as unknown as SelectQueryBuilder<{ t: { created_at: number; id: string } }, 't', O>)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit) as unknown as SelectQueryBuilder<DB, TB, O>;
}
