// Words for what an alias serves, shared by the production view, the Conclude dialog and the model page.
import type { AliasTarget } from '../../api/production';

export const ORIGINAL_ORDER = "the engine's original order";

/** "v5 of ranker-b", "the active version of ranker-b", or the engine's original order for null (the service's words too). */
export function describeTarget(target: AliasTarget | null): string {
  if (target === null) return ORIGINAL_ORDER;
  return target.version === null ? `the active version of ${target.modelId}` : `v${target.version} of ${target.modelId}`;
}
