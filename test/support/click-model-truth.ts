import { pairKey, type PairTruth, type SimulatedLog } from '../../src/click-models/sessions/simulate.js';
import { spearman } from '../../src/click-models/evaluation/spearman.js';
import type { ClickModel } from '../../src/click-models/types.js';

/** Spearman correlation between fitted relevance and a function of the true parameters. */
export function relevanceCorrelation(
  model: ClickModel,
  sim: SimulatedLog,
  truth: (pair: PairTruth) => number,
  minImpressions = 50,
  fitted: (e: ReturnType<ClickModel['estimates']>[number]) => number = (e) => e.relevance,
): { rho: number; pairs: number } {
  const estimates = model.estimates().filter((e) => e.impressions >= minImpressions);
  const trueValues = estimates.map((e) => {
    const t = sim.truth.get(pairKey(e.queryHash, e.resultId));
    if (t === undefined) throw new Error(`no truth for ${e.queryHash}/${e.resultId}`);
    return truth(t);
  });
  return { rho: spearman(estimates.map(fitted), trueValues), pairs: estimates.length };
}

export const trueAttractiveness = (t: PairTruth): number => t.attractiveness;
export const trueDbnRelevance = (t: PairTruth): number => t.attractiveness * t.satisfaction;
