import type { BehaviourTable } from '../../model/artifacts.js';

/**
 * The behaviour features a ranker trained on clicks uses (issue 27), besides the client's
 * features. Every behaviour feature computed from the clicks it learns from is left out:
 * queryResultCtr, resultCtr, meanDwellMs and satisfiedClickShare are the label itself (or exist
 * only where a click did), so trees fit on them memorise the window's clicks — position bias
 * included, a CTR being as position-biased as the clicks — and have nothing for results the log
 * has not seen. meanRating is left out because explicit ratings are what `heldOut.judgments`
 * scores the version on. meanPosition is left out because it is the logged position under another
 * name: the trees learn the old ranker's order from it (the position bias debiasing removes comes
 * back through the feature) and lean on a value every unseen result lacks. `impressions` stays: it
 * is no response to the result, and a site without client features still gets a feature.
 * test/learning/clicks-features.test.ts measured it on seeded simulated windows (true NDCG@10,
 * window's queries / unseen queries): this set 0.953 / 0.917; every behaviour feature 0.931 /
 * 0.845; impressions and meanPosition 0.958 / 0.893; client features only 0.954 / 0.917.
 */
export const CLICKS_BEHAVIOUR_FEATURES = ['impressions'] as const;

/** The table with only the named behaviour columns (client features kept): serving builds rows from it as it stands. */
export function selectBehaviour(table: BehaviourTable, names: readonly string[]): BehaviourTable {
  const keep = names.map((n) => table.names.indexOf(n)).filter((j) => j >= 0);
  const pairs: BehaviourTable['pairs'] = {};
  for (const [q, results] of Object.entries(table.pairs)) {
    const out: Record<string, (number | null)[]> = {};
    for (const [r, values] of Object.entries(results)) out[r] = keep.map((j) => values[j] ?? null);
    pairs[q] = out;
  }
  return { ...table, names: keep.map((j) => table.names[j] as string), pairs };
}
