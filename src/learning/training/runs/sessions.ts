import { inferSessionsFromClicksOnly, type SearchSession } from '../../../click-models/index.js';
import { isClick, isImpression } from '../../../vocabulary/index.js';
import { groupBySearch, type FeedbackColumns } from './feedback-columns.js';
import { UNKNOWN_RESULT_PREFIX } from '../../model/artifacts.js';

export interface SessionStats {
  searches: number;
  /** Searches kept as click-model sessions. */
  sessions: number;
  /** Searches with clicks but no impressions, completed by the cascade assumption. */
  inferredSearches: number;
  impressions: number;
  impressionsInferred: number;
  /** Dropped: no queryHash, no position, or (click-only) no click with a position. */
  searchesDropped: number;
}

/**
 * Feedback → click-model sessions. A search (queryId) with impressions keeps ranks 1..k
 * down to the first rank nobody logged; a search with clicks but no impressions keeps the
 * ranks down to its deepest click (cascade assumption, CMWS §3.4) and is flagged — or, with
 * `clickOnly: 'drop'`, is dropped (counted in searchesDropped): training on clicks needs the list
 * exactly as shown, and a list cut at its deepest click has lost every unclicked result below it.
 */
export function buildSessions(
  cols: FeedbackColumns,
  maxDepth: number,
  options: { clickOnly?: 'infer' | 'drop' } = {},
): { sessions: SearchSession[]; stats: SessionStats } {
  const sessions: SearchSession[] = [];
  const stats: SessionStats = { searches: 0, sessions: 0, inferredSearches: 0, impressions: 0, impressionsInferred: 0, searchesDropped: 0 };
  for (const rows of groupBySearch(cols)) {
    stats.searches += 1;
    let queryHash: string | null = null;
    let timestamp = Infinity;
    let hasImpressions = false;
    const shown = new Map<number, string>();
    const clicked = new Set<string>();
    let deepestClick = 0;
    for (const i of rows) {
      queryHash ??= cols.queryHash[i] ?? null;
      timestamp = Math.min(timestamp, cols.eventTime[i] as number);
      const action = cols.action[i];
      const id = cols.resultId[i];
      const pos = cols.position[i];
      if (isImpression(action)) hasImpressions = true;
      if (id == null) continue;
      if (pos != null && pos <= maxDepth && !shown.has(pos)) shown.set(pos, id);
      if (isClick(action)) {
        clicked.add(id);
        if (pos != null && pos <= maxDepth) deepestClick = Math.max(deepestClick, pos);
      }
    }
    if (queryHash === null) {
      stats.searchesDropped += 1;
      continue;
    }
    if (hasImpressions) {
      const resultIds: string[] = [];
      for (let r = 1; r <= maxDepth && shown.has(r); r += 1) resultIds.push(shown.get(r) as string);
      if (resultIds.length === 0) {
        stats.searchesDropped += 1;
        continue;
      }
      sessions.push({ queryHash, resultIds, clicks: resultIds.map((id) => clicked.has(id)), timestamp });
      stats.impressions += resultIds.length;
      continue;
    }
    if (deepestClick === 0 || options.clickOnly === 'drop') {
      stats.searchesDropped += 1;
      continue;
    }
    const ranking = Array.from({ length: deepestClick }, (_, r) => shown.get(r + 1) ?? `${UNKNOWN_RESULT_PREFIX}${r + 1}`);
    const inferred = inferSessionsFromClicksOnly([{ queryHash, resultIds: ranking, clickedIds: [...clicked], timestamp }], maxDepth);
    for (const s of inferred.sessions) sessions.push(s);
    stats.inferredSearches += inferred.sessions.length;
    stats.impressions += inferred.impressionsInferred;
    stats.impressionsInferred += inferred.impressionsInferred;
  }
  stats.sessions = sessions.length;
  return { sessions, stats };
}
