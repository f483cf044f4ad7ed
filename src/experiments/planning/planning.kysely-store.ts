import { sql, type Kysely } from 'kysely';
import { SESSION_METRIC_SQL, searchMetricX } from '../../storage/metric-sql.js';
import type { Database } from '../../storage/schema.js';
import { ACTION_SQL, type MetricName } from '../../vocabulary/index.js';
import type { PlanningStore, RecentMetricSums } from './planning.store.js';

const SESSION_XY = new Map(SESSION_METRIC_SQL.map(([m, x, y]) => [m, [x, y] as const]));
const isClick = sql.raw(ACTION_SQL.isClick);

export class KyselyPlanningStore implements PlanningStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recentSessionSums(metric: MetricName, since: number): Promise<RecentMetricSums> {
    let perSession;
    const perSearchX = searchMetricX(metric);
    if (perSearchX) {
      // Per search first, then per session. mrr uses the best clicked position of a search,
      // an approximation of the first click that keeps the query portable.
      const perSearch = this.db
        .selectFrom('feedback_items')
        .select([
          'session_id',
          sql<number>`max(case when ${isClick} then 1 else 0 end)`.as('has_click'),
          sql<number>`max(case when ${isClick} and position > 0 then 1.0 / position else 0 end)`.as('rr'),
        ])
        .where('received_at', '>=', since)
        .groupBy(['session_id', 'query_id'])
        .as('s');
      perSession = this.db
        .selectFrom(perSearch)
        .select([sql<number>`${perSearchX}`.as('x'), sql<number>`count(*)`.as('y')])
        .groupBy('s.session_id')
        .as('p');
    } else {
      const [x, y] = SESSION_XY.get(metric)!;
      perSession = this.db
        .selectFrom('feedback_items')
        .select([x.as('x'), y.as('y')])
        .where('received_at', '>=', since)
        .groupBy('session_id')
        .as('p');
    }
    const row = (await this.db
      .selectFrom(perSession)
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`coalesce(sum(p.x), 0)`.as('sx'),
        sql<number>`coalesce(sum(p.y), 0)`.as('sy'),
        sql<number>`coalesce(sum(p.x * p.x), 0)`.as('sxx'),
        sql<number>`coalesce(sum(p.y * p.y), 0)`.as('syy'),
        sql<number>`coalesce(sum(p.x * p.y), 0)`.as('sxy'),
      ])
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    const span = await this.db
      .selectFrom('feedback_items')
      .select([sql<number | null>`min(received_at)`.as('first'), sql<number | null>`max(received_at)`.as('last')])
      .where('received_at', '>=', since)
      .executeTakeFirst();
    const num = (v: unknown) => Number(v ?? 0);
    return {
      sums: { n: num(row?.n), sumX: num(row?.sx), sumY: num(row?.sy), sumX2: num(row?.sxx), sumY2: num(row?.syy), sumXY: num(row?.sxy) },
      firstAt: span?.first === null || span?.first === undefined ? null : Number(span.first),
      lastAt: span?.last === null || span?.last === undefined ? null : Number(span.last),
    };
  }
}
