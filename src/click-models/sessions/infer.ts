import { DEFAULT_MAX_DEPTH, assertDepth } from './encode.js';
import type { SearchSession } from '../types.js';

/** A search whose clicks were logged but whose impressions were not. */
export interface ClickOnlySearch {
  readonly queryHash: string;
  /** The ranking that was served, rank 1 first (from the search log). */
  readonly resultIds: readonly string[];
  readonly clickedIds: readonly string[];
  readonly timestamp?: number;
}

export interface InferredSessions {
  readonly sessions: SearchSession[];
  /** Impressions created by the cascade assumption (one per rank kept). */
  readonly impressionsInferred: number;
  /** Searches dropped because none of their clicks fell within the ranking's top ranks. */
  readonly searchesWithoutClicks: number;
  /** Clicked ids not found in the served ranking (or below maxDepth). */
  readonly clicksIgnored: number;
}

/**
 * Reconstructs impressions with the cascade assumption (CMWS §3.4; Craswell et al.
 * 2008): a user who clicked rank k looked at ranks 1..k, so the session keeps ranks
 * down to the deepest click and nothing below it — below the last click we cannot
 * tell "not examined" from "examined and skipped". Searches with no usable click say
 * nothing about examination and are dropped. Sessions are flagged
 * `impressionsInferred` so fit summaries can count them.
 */
export function inferSessionsFromClicksOnly(searches: readonly ClickOnlySearch[], maxDepth = DEFAULT_MAX_DEPTH): InferredSessions {
  assertDepth(maxDepth);
  const sessions: SearchSession[] = [];
  let impressionsInferred = 0;
  let searchesWithoutClicks = 0;
  let clicksIgnored = 0;
  for (const search of searches) {
    const shown = search.resultIds.slice(0, maxDepth);
    const clicked = new Set(search.clickedIds);
    const clicks = shown.map((id) => clicked.has(id));
    const matched = new Set(shown.filter((id) => clicked.has(id)));
    clicksIgnored += clicked.size - matched.size;
    const last = clicks.lastIndexOf(true);
    if (last < 0) {
      searchesWithoutClicks += 1;
      continue;
    }
    const session: SearchSession = {
      queryHash: search.queryHash,
      resultIds: shown.slice(0, last + 1),
      clicks: clicks.slice(0, last + 1),
      impressionsInferred: true,
      ...(search.timestamp === undefined ? {} : { timestamp: search.timestamp }),
    };
    sessions.push(session);
    impressionsInferred += last + 1;
  }
  return { sessions, impressionsInferred, searchesWithoutClicks, clicksIgnored };
}
