// The side-by-side page's words, in a plain module so the browser test prints the same text from the API.

/** What a side's heading reads (the API's `served`). */
interface Served {
  served: { source: 'original' | 'alias' | 'model'; alias: string | null; modelId: string | null; version: number | null };
}
interface Movement {
  kind: 'same' | 'up' | 'down' | 'new';
  by: number;
  otherRank: number;
}

/** The side's heading in words: what orders it. */
export function servedLabel(side: Served): string {
  const s = side.served;
  if (s.source === 'original') return s.alias ? `Alias ${s.alias}: engine order (it serves no model)` : 'Engine order';
  const model = `${s.modelId} v${s.version}`;
  return s.source === 'alias' ? `Alias ${s.alias}: ${model}` : `Ranker ${model}`;
}

/** "▲3", "▼2", "new" or "=", with its meaning in words for the hover and screen readers. */
export function movementText(m: Movement): string {
  return m.kind === 'up' ? `▲${m.by}` : m.kind === 'down' ? `▼${m.by}` : m.kind === 'new' ? 'new' : '=';
}
