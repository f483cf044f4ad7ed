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

/** 'alias "production" moved from v3 of ranker-a to v5 of ranker-b': one sentence for conclusions and log lines. */
export function describeAliasMove(alias: string, from: AliasTarget | null, to: AliasTarget | null): string {
  return `alias "${alias}" moved from ${describeAliasTarget(from)} to ${describeAliasTarget(to)}`;
}
