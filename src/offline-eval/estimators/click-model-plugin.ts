import { fitClickModel, type SearchSession, type SerializedClickModel } from '../../click-models/index.js';
import type { EncodedSearches } from '../log/encode.js';
import type { LoggedSearch } from '../types.js';

/**
 * The direct method (Chuklin, Serdyukov & de Rijke, SIGIR 2013): a click model fitted on the
 * logs predicts the clicks a new list would get. PBM and DBN models from src/click-models, their
 * parameters mapped onto the encoded log's pairs once; a result the logs never showed for its
 * query gets attractiveness 0 (no evidence, never clicked), as in every other estimator.
 */
export interface PluginModel {
  algorithm: 'pbm' | 'dbn';
  /** Per log pair. */
  alpha: Float64Array;
  sigma: Float64Array;
  /** PBM examination per rank (absolute, as fitted). */
  gamma: readonly number[];
  /** DBN continuation λ. */
  lambda: number;
}

/** Fits `algorithm` on the searches, as the caller would with src/click-models. */
export function fitPluginModel(searches: readonly LoggedSearch[], algorithm: 'pbm' | 'dbn', maxDepth: number): SerializedClickModel {
  const sessions: SearchSession[] = searches.map((s) => ({ queryHash: s.queryHash, resultIds: s.resultIds, clicks: s.clicks }));
  return fitClickModel(sessions, { algorithm, maxDepth }).toJSON();
}

export function pluginModel(log: EncodedSearches, model: SerializedClickModel): PluginModel {
  if (model.algorithm !== 'pbm' && model.algorithm !== 'dbn') {
    throw new RangeError(`a ${model.algorithm} click model cannot serve the direct method: pbm or dbn expected`);
  }
  const pairs = log.pairDoc.length;
  // Pairs of the log that the model did not see (a model fitted on another window) get its defaults.
  const alpha = new Float64Array(pairs).fill(model.defaults.attractiveness);
  const sigma = new Float64Array(pairs).fill(model.defaults.satisfaction);
  const queryIds = new Map(log.queries.map((q, i) => [q, i]));
  const modelQuery = model.queries.map((q) => queryIds.get(q) ?? -1);
  for (let m = 0; m < model.pairs.doc.length; m += 1) {
    const q = modelQuery[model.pairs.query[m] as number] as number;
    if (q < 0) continue;
    const p = log.pairIndex[q]?.get(model.pairs.doc[m] as string);
    if (p === undefined) continue;
    alpha[p] = model.pairs.attractiveness[m] as number;
    sigma[p] = model.pairs.satisfaction?.[m] ?? 1;
  }
  return {
    algorithm: model.algorithm,
    alpha,
    sigma,
    gamma: model.params.gamma ?? model.ranks.examination,
    lambda: model.params.continuation ?? 1,
  };
}

/**
 * The model's click probabilities c_r (marginal: nothing observed) and first-click probabilities
 * f_r for a list of log pairs (−1 = no evidence). PBM: c_r = α γ_r, clicks independent. DBN
 * (CMWS §3.8): ε_1 = 1, c_r = α_r ε_r, ε_{r+1} = ε_r λ (1 − α_r σ_r); the first click is at r
 * with probability u_r α_r, where u_1 = 1 and u_{r+1} = u_r (1 − α_r) λ (no click so far).
 */
export function modelListProbabilities(
  model: PluginModel,
  pairs: Int32Array,
  start: number,
  length: number,
  c: Float64Array,
  f: Float64Array,
): void {
  if (model.algorithm === 'pbm') {
    let none = 1;
    const last = model.gamma.length - 1;
    for (let r = 0; r < length; r += 1) {
      const p = pairs[start + r] as number;
      const a = p < 0 ? 0 : (model.alpha[p] as number);
      const click = a * ((model.gamma[Math.min(r, last)] as number) ?? 0);
      c[r] = click;
      f[r] = none * click;
      none *= 1 - click;
    }
    return;
  }
  let examined = 1;
  let untouched = 1;
  for (let r = 0; r < length; r += 1) {
    const p = pairs[start + r] as number;
    const a = p < 0 ? 0 : (model.alpha[p] as number);
    const s = p < 0 ? 0 : (model.sigma[p] as number);
    c[r] = a * examined;
    f[r] = a * untouched;
    examined *= model.lambda * (1 - a * s);
    untouched *= (1 - a) * model.lambda;
  }
}

/** The click probability at rank 1 (γ̂ on the position-1 scale), for the interleaving expectation. */
export function modelTopClick(model: PluginModel, pair: number): number {
  if (pair < 0) return 0;
  const a = model.alpha[pair] as number;
  return model.algorithm === 'pbm' ? a * ((model.gamma[0] as number) ?? 0) : a;
}
