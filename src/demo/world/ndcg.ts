/** NDCG@k with gains 2^grade − 1 (Järvelin & Kekäläinen 2002; Burges et al.'s exponential gain). */
export function ndcgAt(grades: readonly number[], allGrades: readonly number[], k = 10): number {
  const dcg = (gs: readonly number[]) => gs.slice(0, k).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg([...allGrades].sort((a, b) => b - a));
  return ideal > 0 ? dcg(grades) / ideal : 0;
}
