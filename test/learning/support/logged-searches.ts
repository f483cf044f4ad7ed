import { mulberry32 } from '../../../src/random/index.js';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import { insertBatches } from '../../../src/storage/batch-write.js';
import { toFeedbackRow, type FeedbackItemFields } from '../../../src/storage/tables/feedback-row.js';

/**
 * A seeded log for offline evaluation: `queries` queries of `docs` results each, with a hidden
 * relevance per result and client features `1` (its relevance) and `2` (its index), named as a
 * LETOR file's; three rankers serve the searches in turn (A: by relevance with noise, B and C: A's
 * order with adjacent pairs swapped), so the same (query, result) is shown at several positions.
 * Users examine position p with probability 1/p and click an examined result with its relevance
 * (PBM), half of them on mobile.
 */
export interface LogOptions {
  queries: number;
  docs: number;
  searches: number;
  seed: number;
  /** First event time (epoch ms); searches are one second apart. */
  start: number;
  /** Prefix of item, search and session ids, so two logs can share a database. */
  prefix?: string;
}

export const examination = (position: number) => 1 / position;
export const relevanceOf = (q: number, d: number) => 0.9 * Math.exp(-((d + (q % 3)) / 3));

export function loggedItems(o: LogOptions): FeedbackItemFields[] {
  const random = mulberry32(o.seed);
  const prefix = o.prefix ?? 'x';
  const items: FeedbackItemFields[] = [];
  let n = 0;
  for (let s = 0; s < o.searches; s += 1) {
    const q = s % o.queries;
    const ids = Array.from({ length: o.docs }, (_, d) => d);
    const byA = [...ids].sort((a, b) => relevanceOf(q, b) + random() * 0.05 - (relevanceOf(q, a) + random() * 0.05));
    // Every query meets all three rankers: they take turns per round over the queries. B swaps
    // ranks (1, 2), (3, 4)…, C swaps (2, 3), (4, 5)…, so harvesting links every position to position 1.
    const ranker = Math.floor(s / o.queries) % 3;
    let list = byA;
    if (ranker > 0) {
      list = [...byA];
      for (let i = ranker - 1; i + 1 < list.length; i += 2) [list[i], list[i + 1]] = [list[i + 1]!, list[i]!];
    }
    const time = o.start + s * 1000;
    const device = s % 4 < 2 ? 'mobile' : 'desktop';
    const base = {
      submissionId: `${prefix}-sub${s}`,
      sessionId: `${prefix}-sess${Math.floor(s / 3)}`,
      queryId: `${prefix}-search${s}`,
      rating: null,
      receivedAt: time,
      queryHash: `query${q}`,
      engagementType: null,
      searchType: null,
      timeToClick: null,
      deviceType: device,
      viewportWidth: null,
      viewportHeight: null,
      scrollDepth: null,
      category: null,
      language: null,
    };
    list.forEach((d, i) => {
      const position = i + 1;
      const resultId = `q${q}-d${d}`;
      const extra = JSON.stringify({ features: { '1': relevanceOf(q, d), '2': d } });
      items.push({
        ...base,
        id: `${prefix}-${String(n++).padStart(8, '0')}`,
        seq: n,
        userAction: 'impression',
        eventTime: time,
        resultId,
        position,
        dwellTime: null,
        extraMetadata: extra,
      });
      if (random() < examination(position) && random() < relevanceOf(q, d)) {
        const dwellTime = random() < 0.5 ? 45_000 : 5_000;
        items.push({
          ...base,
          id: `${prefix}-${String(n++).padStart(8, '0')}`,
          seq: n,
          userAction: 'click',
          eventTime: time + 1,
          resultId,
          position,
          dwellTime,
          extraMetadata: null,
        });
      }
    });
  }
  return items;
}

export async function writeLog(database: DatabaseHandle, o: LogOptions): Promise<number> {
  const items = loggedItems(o);
  await insertBatches(items.map(toFeedbackRow), (rows) => database.db.insertInto('feedback_items').values(rows).execute());
  return items.length;
}
