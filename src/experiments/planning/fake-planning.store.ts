import { isClick, linearValue, metricDefinition, type MetricName } from '../../vocabulary/index.js';
import type { AttributableItem, SessionFold } from '../model/attribution-records.js';
import type { FakeExperimentData } from '../model/fake-experiment-data.js';
import type { PlanningStore, RecentMetricSums } from './planning.store.js';

/**
 * In-memory PlanningStore. Session-level metrics use the catalogue's folds where the Kysely store
 * runs the catalogue's SQL (the contract test holds them to one answer); per-search metrics mirror
 * the store's approximation (has a click; 1/best clicked position).
 */
export class FakePlanningStore implements PlanningStore {
  /** `foldSession` is attribution's fold (attribution/fake-session-fold.ts), passed in by whoever builds the fakes. */
  constructor(
    readonly data: FakeExperimentData,
    private readonly foldSession: SessionFold,
  ) {}

  async recentSessionSums(metric: MetricName, since: number): Promise<RecentMetricSums> {
    const recent = this.data.feedback().filter((i) => i.receivedAt >= since);
    const bySession = new Map<string, AttributableItem[]>();
    for (const i of recent) bySession.set(i.sessionId, [...(bySession.get(i.sessionId) ?? []), i]);
    const m = metricDefinition(metric);
    const sums = { n: 0, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 };
    for (const items of bySession.values()) {
      let x: number;
      let y: number;
      if ('session' in m.sql) {
        const stats = this.foldSession(items);
        [x, y] = [linearValue(stats, m.x), linearValue(stats, m.y)];
      } else {
        const searches = new Map<string, { hasClick: number; rr: number }>();
        for (const i of items) {
          const s = searches.get(i.queryId) ?? { hasClick: 0, rr: 0 };
          if (isClick(i.userAction)) {
            s.hasClick = 1;
            if (i.position !== null && i.position > 0) s.rr = Math.max(s.rr, 1 / i.position);
          }
          searches.set(i.queryId, s);
        }
        const all = [...searches.values()];
        x = metric === 'mrr' ? all.reduce((a, s) => a + s.rr, 0) : all.length - all.reduce((a, s) => a + s.hasClick, 0);
        y = all.length;
      }
      sums.n += 1;
      sums.sumX += x;
      sums.sumY += y;
      sums.sumX2 += x * x;
      sums.sumY2 += y * y;
      sums.sumXY += x * y;
    }
    const times = recent.map((i) => i.receivedAt);
    return { sums, firstAt: times.length ? Math.min(...times) : null, lastAt: times.length ? Math.max(...times) : null };
  }
}
