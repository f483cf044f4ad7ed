import { createRng, type SeededRng } from '../../random/index.js';
import { drawQuery, type Catalogue, type Doc, type Query } from './catalogue.js';
import type { SimulatedClick } from './users.js';

/** One feedback item as POST /api/cortex/feedback takes it. */
export interface FeedbackItem {
  queryId: string;
  rating?: number;
  metadata: {
    userAction: string;
    timestamp: string;
    resultId?: string;
    queryHash?: string;
    customMetadata?: Record<string, unknown>;
  };
}

export interface PlannedSearch {
  queryId: string;
  query: Query;
  /** Milliseconds after the session's start. */
  offsetMs: number;
}

export interface SessionPlan {
  sessionId: string;
  deviceType: 'desktop' | 'mobile';
  searches: PlannedSearch[];
  /** The session's own generator: the same seed and index give the same users. */
  rng: SeededRng;
}

/** A 32-bit seed for session `index` of run `seed` (a multiplicative mix; sessions are independent streams). */
export function sessionSeed(seed: number, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (index + 0x7f4a7c15), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A session: one to a few searches a minute or two apart, queries drawn by popularity. */
export function planSession(catalogue: Catalogue, seed: number, index: number, idPrefix: string): SessionPlan {
  const rng = createRng(sessionSeed(seed, index));
  const sessionId = `${idPrefix}-${index}`;
  const count = 1 + Math.min(4, rng.poisson(0.6));
  let offsetMs = 0;
  const searches: PlannedSearch[] = [];
  for (let k = 0; k < count; k += 1) {
    searches.push({ queryId: `${sessionId}-q${k}`, query: drawQuery(catalogue, rng.uniform()), offsetMs });
    offsetMs += 20_000 + Math.round(100_000 * rng.uniform());
  }
  return { sessionId, deviceType: rng.uniform() < 0.55 ? 'mobile' : 'desktop', searches, rng };
}

/** What the user saw and did in one search, as feedback: impressions, clicks, ratings, purchases. */
export function searchFeedback(
  search: PlannedSearch,
  shown: readonly Doc[],
  clicks: readonly SimulatedClick[],
  startMs: number,
  deviceType: string,
): FeedbackItem[] {
  const at = (ms: number) => new Date(Math.round(startMs + ms)).toISOString();
  const { queryId } = search;
  const queryHash = search.query.queryHash;
  const items: FeedbackItem[] = shown.map((doc, i) => ({
    queryId,
    metadata: {
      userAction: 'impression',
      timestamp: at(0),
      resultId: doc.resultId,
      queryHash,
      customMetadata: { position: i + 1, deviceType, searchType: 'keyword', features: doc.features },
    },
  }));
  for (const click of clicks) {
    const resultId = click.doc.resultId;
    items.push({
      queryId,
      metadata: {
        userAction: 'click',
        timestamp: at(click.timeToClickMs),
        resultId,
        queryHash,
        customMetadata: { position: click.position, timeToClick: click.timeToClickMs, dwellTime: click.dwellMs, deviceType },
      },
    });
    const after = at(click.timeToClickMs + click.dwellMs);
    if (click.rating !== undefined)
      items.push({ queryId, rating: click.rating, metadata: { userAction: 'rate', timestamp: after, resultId, queryHash } });
    if (click.converted)
      items.push({
        queryId,
        metadata: { userAction: 'purchase', timestamp: after, resultId, queryHash, customMetadata: { position: click.position } },
      });
  }
  return items;
}
