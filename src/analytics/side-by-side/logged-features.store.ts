/** Ranker features (`customMetadata.features`) as feedback logged them for a query's results. */
export interface LoggedFeaturesStore {
  /**
   * Per result, each feature's latest logged value among the query's feedback with event times in
   * [from, to) (at most LOGGED_FEATURES_SCAN items, newest first); results logged without any are absent.
   */
  latest(
    queryHash: string,
    resultIds: readonly string[],
    window: { from: number; to: number },
  ): Promise<Map<string, Record<string, number>>>;
}

/** How many of the query's newest feedback items with metadata a read looks at. */
export const LOGGED_FEATURES_SCAN = 20_000;

/** Folds rows (newest first) into each result's latest value per feature. */
export function latestFeatures(rows: Iterable<{ resultId: string; extra: string }>): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const features = (JSON.parse(row.extra) as { features?: Record<string, number> }).features;
    if (!features) continue;
    const seen = out.get(row.resultId) ?? {};
    for (const [name, value] of Object.entries(features)) if (!(name in seen)) seen[name] = value;
    out.set(row.resultId, seen);
  }
  return out;
}
