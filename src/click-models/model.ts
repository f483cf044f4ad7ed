import { predictClicks } from './predict.js';
import type { ClickModel, ClickProbabilities, PairEstimate, SearchSession, SerializedClickModel } from './types.js';
import { CLICK_MODEL_ALGORITHMS } from './types.js';

function assertSerializedModel(data: SerializedClickModel): void {
  if (data?.format !== 'searchloop.click-model' || data.version !== 1) {
    throw new TypeError('not a searchloop click model (format/version mismatch)');
  }
  if (!(CLICK_MODEL_ALGORITHMS as readonly string[]).includes(data.algorithm)) {
    throw new TypeError(`unknown click model algorithm: ${String(data.algorithm)}`);
  }
  const n = data.pairs.doc.length;
  const { pairs } = data;
  const lengths = [pairs.query, pairs.impressions, pairs.clicks, pairs.attractiveness, pairs.relevance];
  if (lengths.some((a) => a.length !== n) || (pairs.satisfaction !== null && pairs.satisfaction.length !== n)) {
    throw new TypeError('click model pair arrays differ in length');
  }
}

/**
 * Wraps stored model data with lookups and predictions. Fitting returns the same
 * wrapper, so `restoreClickModel(JSON.parse(JSON.stringify(model)))` predicts
 * exactly what `model` did (doubles survive JSON round trips exactly).
 */
export function restoreClickModel(data: SerializedClickModel): ClickModel {
  assertSerializedModel(data);
  const { pairs, queries } = data;
  // Built on first lookup: a worker that only fits and serialises never pays for it.
  let built: Map<string, Map<string, number>> | undefined;
  const index = (): Map<string, Map<string, number>> => {
    if (built !== undefined) return built;
    built = new Map();
    for (let p = 0; p < pairs.doc.length; p += 1) {
      const query = queries[pairs.query[p] as number] as string;
      let docs = built.get(query);
      if (docs === undefined) {
        docs = new Map();
        built.set(query, docs);
      }
      docs.set(pairs.doc[p] as string, p);
    }
    return built;
  };

  const estimateAt = (p: number): PairEstimate => ({
    queryHash: queries[pairs.query[p] as number] as string,
    resultId: pairs.doc[p] as string,
    relevance: pairs.relevance[p] as number,
    attractiveness: pairs.attractiveness[p] as number,
    satisfaction: pairs.satisfaction === null ? null : (pairs.satisfaction[p] as number),
    impressions: pairs.impressions[p] as number,
    clicks: pairs.clicks[p] as number,
  });

  const maxDepth = data.config.maxDepth;
  return {
    algorithm: data.algorithm,
    maxDepth,
    summary: data.summary,
    examination: data.ranks.examination,
    estimate(queryHash: string, resultId: string): PairEstimate | undefined {
      const p = index().get(queryHash)?.get(resultId);
      return p === undefined ? undefined : estimateAt(p);
    },
    estimates(): PairEstimate[] {
      return pairs.doc.map((_, p) => estimateAt(p));
    },
    clickProbabilities(session: SearchSession): ClickProbabilities {
      const n = Math.min(session.resultIds.length, session.clicks.length, maxDepth);
      const docs = index().get(session.queryHash);
      const alpha: number[] = [];
      const sigma: number[] | null = pairs.satisfaction === null ? null : [];
      for (let r = 0; r < n; r += 1) {
        const p = docs?.get(session.resultIds[r] as string);
        alpha.push(p === undefined ? data.defaults.attractiveness : (pairs.attractiveness[p] as number));
        sigma?.push(p === undefined ? data.defaults.satisfaction : (pairs.satisfaction?.[p] as number));
      }
      return predictClicks(data, alpha, sigma, session.clicks.slice(0, n));
    },
    toJSON(): SerializedClickModel {
      return data;
    },
  };
}
