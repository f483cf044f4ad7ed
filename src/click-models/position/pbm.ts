import type { FittedParts } from '../build-serialized-model.js';
import { aggregateCells } from './cells.js';
import { cellEm } from './cell-em.js';
import type { EncodedLog, LogCounts } from '../sessions/encode.js';
import type { ResolvedConfig } from '../types.js';

/**
 * Position-based model (CMWS §3.3): P(C_r = 1) = α_qd · γ_r, fitted by EM over
 * (pair, rank) cells (§4.2). Relevance = α; examination = γ_r, scaled so max γ = 1.
 */
export function fitPbm(log: EncodedLog, _counts: LogCounts, config: ResolvedConfig): FittedParts {
  const cells = aggregateCells(log, false);
  const em = cellEm(cells, log.pairCount, log.depth, config);
  return {
    attractiveness: em.alpha,
    satisfaction: null,
    relevance: em.alpha,
    examination: em.gamma,
    params: { gamma: Array.from(em.gamma) },
    iterations: em.iterations,
    converged: em.converged,
  };
}
