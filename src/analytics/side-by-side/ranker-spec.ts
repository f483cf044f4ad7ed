/**
 * Which ranker orders one side of the side-by-side view, as the query string names it:
 * `original` (the search engine's logged order), `alias:<name>` (what the alias serves, as
 * POST /api/nous/rank does for `production`) or `model:<modelId>` / `model:<modelId>@<version>`
 * (the active or a fixed version, as POST /api/nous/learn/models/{modelId}/rank does).
 */
export type RankerSpec = { kind: 'original' } | { kind: 'alias'; alias: string } | { kind: 'model'; modelId: string; version?: number };

/** The grammar above; alias names and model ids as the learning API accepts them. */
export const RANKER_SPEC_PATTERN = '^(original|alias:[a-z0-9][a-z0-9._-]{0,63}|model:[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@[1-9][0-9]{0,8})?)$';
const SPEC = new RegExp(RANKER_SPEC_PATTERN);

/** The spec, or null when the text does not follow the grammar (the route's schema refuses it first). */
export function parseRankerSpec(text: string): RankerSpec | null {
  if (!SPEC.test(text)) return null;
  if (text === 'original') return { kind: 'original' };
  if (text.startsWith('alias:')) return { kind: 'alias', alias: text.slice('alias:'.length) };
  const [modelId, version] = text.slice('model:'.length).split('@');
  return version === undefined ? { kind: 'model', modelId: modelId! } : { kind: 'model', modelId: modelId!, version: Number(version) };
}
