/**
 * Click-model relevance for the rank exploration's expected cost, as a port the container fills from
 * the learning module (experiments never import learning's files).
 */
export interface ClickModelRef {
  modelId: string;
  version: number;
}

export interface ClickRelevance {
  /** The click model whose active version was trained last; null when no click model has a version. */
  latest(): Promise<ClickModelRef | null>;
  /** The model's relevance of each result for the query; null where it never saw the pair. */
  relevance(model: ClickModelRef, queryHash: string, resultIds: readonly string[]): Promise<Map<string, number | null>>;
}
