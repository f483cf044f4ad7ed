import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { MetricName } from './metric-catalogue.js';
import type { PlanningStore, RecentMetricSums } from './results.store.js';
import { IS_CLICK as isClick, SESSION_METRIC_SQL } from './session-metric-sql.js';

const flag = (condition: RawBuilder<unknown>) => sql<number>`case when ${condition} then 1 else 0 end`;
const SESSION_XY = new Map(SESSION_METRIC_SQL.map(([m, x, y]) => [m, [x, y] as const]));

export class KyselyPlanningStore implements PlanningStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recentSessionSums(metric: MetricName, since: number): Promise<RecentMetricSums> {
    let perSession;
    if (metric === 'abandonment_rate' || metric === 'mrr') {
      // Per search first, then per session. mrr uses the best clicked position of a search,
      // an approximation of the first click that keeps the query portable.
      const perSearch = this.db
        .selectFrom('feedback_items')
        .select([
          'session_id',
          sql<number>`max(${flag(isClick)})`.as('has_click'),
          sql<number>`max(case when user_action = 'click' and position > 0 then 1.0 / position else 0 end)`.as('rr'),
        ])
        .where('received_at', '>=', since)
        .groupBy(['session_id', 'query_id'])
        .as('s');
      const x = metric === 'mrr' ? sql<number>`sum(s.rr)` : sql<number>`count(*) - sum(s.has_click)`;
      perSession = this.db
        .selectFrom(perSearch)
        .select([sql<number>`${x}`.as('x'), sql<number>`count(*)`.as('y')])
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
