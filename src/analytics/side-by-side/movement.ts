/** Where a result stands on this side against the other side of the view. */
export interface Movement {
  /** up: the other side ranks it lower; down: higher; new: outside the other side's top k. */
  kind: 'same' | 'up' | 'down' | 'new';
  /** Ranks moved (0 for same and new). */
  by: number;
  /** Its rank on the other side among every candidate (1 = first). */
  otherRank: number;
}

/**
 * The movement of each of `mine`'s first k results against `other`, a full order of the same
 * candidates: "▲3" reads "this side puts it 3 places higher than the other".
 */
export function movements(mine: readonly string[], other: readonly string[], k: number): Movement[] {
  const otherRank = new Map(other.map((id, i) => [id, i + 1]));
  return mine.slice(0, k).map((id, i) => {
    const rank = i + 1;
    const there = otherRank.get(id);
    if (there === undefined) throw new Error(`result ${id} is missing from the other side`);
    if (there > k) return { kind: 'new', by: 0, otherRank: there };
    if (there === rank) return { kind: 'same', by: 0, otherRank: there };
    return there > rank ? { kind: 'up', by: there - rank, otherRank: there } : { kind: 'down', by: rank - there, otherRank: there };
  });
}

/** DCG of the first k results with the click model's relevance as the gain (unjudged results gain 0). */
export function relevanceDcg(relevance: readonly (number | null)[]): number {
  return relevance.reduce<number>((sum, r, i) => sum + (r ?? 0) / Math.log2(i + 2), 0);
}
