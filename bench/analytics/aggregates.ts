import { COUNTERS, DIMENSIONS, HOUR_MS, emptyCounters, histogramColumn, type Counters } from '../../src/analytics/model/counters.js';
import { mulberry32 } from '../../src/random/index.js';

/**
 * Synthetic aggregates for the read benchmark: the hourly rows the fold would write for `items`
 * feedback items over `days` days and `queries` distinct queries (Zipf popularity, s = 1), with
 * every dimension slice. Generated hour by hour (straight into the tables, not through the fold:
 * folding 10 M items takes longer than a benchmark run; bench:analytics measures the fold's own
 * cost separately, as ingestion throughput).
 *
 * A search: 10 impressions; a click with probability 0.55 at a geometric position (p = 0.35),
 * a second click with probability 0.2; a conversion with probability 0.05; resultCount sent by
 * half of the searches, 4 % of them zero. That is 10 + 0.55 + 0.11 + 0.05 ≈ 10.7 items per search.
 */
export const ITEMS_PER_SEARCH = 10.71;

const DIMENSION_VALUES: Record<(typeof DIMENSIONS)[number], string[]> = {
  deviceType: ['mobile', 'desktop', 'tablet'],
  searchType: ['keyword', 'semantic'],
  language: ['en', 'de', 'fr', 'es'],
  category: Array.from({ length: 20 }, (_, i) => `cat-${i}`),
};

export interface HourRows {
  total: { dimension: string; value: string; counters: Counters }[];
  query: { dimension: string; value: string; queryHash: string; counters: Counters }[];
}

export function* generateHours(options: {
  items: number;
  days: number;
  queries: number;
  start: number;
  seed: number;
}): Generator<{ hour: number; rows: HourRows }> {
  const random = mulberry32(options.seed);
  const cdf = new Float64Array(options.queries);
  let acc = 0;
  for (let i = 0; i < options.queries; i += 1) cdf[i] = acc += 1 / (i + 1);
  const zipf = () => {
    const u = random() * acc;
    let lo = 0;
    let hi = options.queries - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const geometric = () => 1 + Math.floor(Math.log(1 - random()) / Math.log(1 - 0.35));
  const hours = options.days * 24;
  const searchesPerHour = options.items / ITEMS_PER_SEARCH / hours;
  for (let h = 0; h < hours; h += 1) {
    const hour = options.start + h * HOUR_MS;
    const total = new Map<string, { dimension: string; value: string; counters: Counters }>();
    const query = new Map<string, { dimension: string; value: string; queryHash: string; counters: Counters }>();
    const n = Math.round(searchesPerHour * (0.6 + 0.8 * random()));
    for (let s = 0; s < n; s += 1) {
      const queryHash = `q-${zipf()}`;
      const add = emptyCounters();
      add.searches = 1;
      add.sessions = random() < 0.5 ? 1 : 0;
      add.impressions = 10;
      if (random() < 0.55) {
        const position = geometric();
        add.clicks = random() < 0.2 ? 2 : 1;
        add.first_clicks = 1;
        add.first_click_position_sum = position;
        add.first_click_rr_sum = 1 / position;
        add[histogramColumn(position)] = 1;
      } else add.abandoned = 1;
      add.conversions = random() < 0.05 ? 1 : 0;
      if (random() < 0.5) {
        add.result_count_searches = 1;
        add.zero_result_searches = random() < 0.04 ? 1 : 0;
      }
      const slices: [string, string][] = [['', '']];
      for (const d of DIMENSIONS) slices.push([d, DIMENSION_VALUES[d][Math.floor(random() * DIMENSION_VALUES[d].length)]!]);
      for (const [dimension, value] of slices) {
        const tk = `${dimension}\u0001${value}`;
        const t = total.get(tk) ?? { dimension, value, counters: emptyCounters() };
        const qk = `${tk}\u0001${queryHash}`;
        const q = query.get(qk) ?? { dimension, value, queryHash, counters: emptyCounters() };
        for (const c of COUNTERS) {
          t.counters[c] += add[c];
          q.counters[c] += add[c];
        }
        total.set(tk, t);
        query.set(qk, q);
      }
    }
    yield { hour, rows: { total: [...total.values()], query: [...query.values()] } };
  }
}
