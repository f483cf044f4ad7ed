import type { EncodedLog, LogCounts } from './sessions/encode.js';
import type { ModelParams, ResolvedConfig, SerializedClickModel } from './types.js';

export interface FittedParts {
  readonly attractiveness: Float64Array;
  readonly satisfaction: Float64Array | null;
  readonly relevance: Float64Array;
  readonly examination: ArrayLike<number>;
  readonly params: ModelParams;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * Unseen pairs get the population average rather than the Beta prior mean: a held-out
 * session mostly meets documents like the ones in training, and 0.5 would be far off
 * for typical attractiveness levels. Attractiveness is weighted by impressions,
 * satisfaction by clicks (the events it is estimated from).
 */
function populationDefaults(counts: LogCounts, parts: FittedParts): SerializedClickModel['defaults'] {
  let aNum = 0;
  let aDen = 0;
  let sNum = 0;
  let sDen = 0;
  const n = parts.attractiveness.length;
  for (let p = 0; p < n; p += 1) {
    const w = counts.pairImpressions[p] as number;
    aNum += w * (parts.attractiveness[p] as number);
    aDen += w;
    if (parts.satisfaction !== null) {
      const c = counts.pairClicks[p] as number;
      sNum += c * (parts.satisfaction[p] as number);
      sDen += c;
    }
  }
  return {
    attractiveness: aDen > 0 ? aNum / aDen : 0.5,
    satisfaction: sDen > 0 ? sNum / sDen : 0.5,
  };
}

export function buildSerializedModel(log: EncodedLog, counts: LogCounts, config: ResolvedConfig, parts: FittedParts): SerializedClickModel {
  return {
    format: 'searchloop.click-model',
    version: 1,
    algorithm: config.algorithm,
    config,
    summary: {
      sessions: log.sessionCount,
      impressions: counts.impressions,
      clicks: counts.clicks,
      impressionsInferred: log.impressionsInferred,
      pairs: log.pairCount,
      iterations: parts.iterations,
      converged: parts.converged,
    },
    queries: [...log.queries],
    pairs: {
      query: Array.from(log.pairQuery),
      doc: [...log.pairDoc],
      impressions: Array.from(counts.pairImpressions),
      clicks: Array.from(counts.pairClicks),
      attractiveness: Array.from(parts.attractiveness),
      satisfaction: parts.satisfaction === null ? null : Array.from(parts.satisfaction),
      relevance: Array.from(parts.relevance),
    },
    ranks: {
      impressions: Array.from(counts.rankImpressions),
      clicks: Array.from(counts.rankClicks),
      examination: Array.from(parts.examination),
    },
    params: parts.params,
    defaults: populationDefaults(counts, parts),
  };
}
