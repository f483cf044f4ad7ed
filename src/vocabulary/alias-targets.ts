/**
 * What an alias (or a conclusion) sends searches to, in the words both the learning module's log
 * lines and experiments' conclusion summaries use: a model's fixed version, its active version, or —
 * when the alias is cleared — the search engine's original order (null).
 */
export interface AliasTarget {
  modelId: string;
  version: number | null;
}

/** "v3 of ranker-a", "the active version of ranker-a", or "the engine's original order". */
export function describeAliasTarget(t: AliasTarget | null): string {
  if (t === null) return "the engine's original order";
  return t.version === null ? `the active version of ${t.modelId}` : `v${t.version} of ${t.modelId}`;
}
