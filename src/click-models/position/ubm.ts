import type { FittedParts } from '../build-serialized-model.js';
import { aggregateCells } from './cells.js';
import { cellEm } from './cell-em.js';
import type { EncodedLog, LogCounts } from '../sessions/encode.js';
import type { ResolvedConfig } from '../types.js';

/**
 * User browsing model (CMWS §3.5): P(C_r = 1 | C_<r) = α_qd · γ_{r,r'}, r' the rank of
 * the previous click (0 when none). Given the clicks r' is observed, so EM runs over
 * (pair, r, r') cells exactly as for PBM (§4.2.3). Relevance = α.
 *
 * Examination summary per rank: γ_{r,r'} averaged over r' weighted by how often each
 * previous-click rank occurred at rank r in training — the examination a typical
 * session in this log had at that rank. The full matrix is in `params.gammaByPrevClick`.
 */
export function fitUbm(log: EncodedLog, _counts: LogCounts, config: ResolvedConfig): FittedParts {
  const depth = log.depth;
  const width = depth + 1;
  const cells = aggregateCells(log, true);
  const em = cellEm(cells, log.pairCount, depth * width, config);

  const matrix: number[][] = [];
  const examination = new Float64Array(depth);
  for (let r = 0; r < depth; r += 1) {
    const row: number[] = [];
    let weighted = 0;
    let weight = 0;
    for (let prev = 0; prev <= depth; prev += 1) {
      const g = r * width + prev;
      const value = em.gamma[g] as number;
      row.push(value);
      const n = em.gammaImpressions[g] as number;
      weighted += n * value;
      weight += n;
    }
    matrix.push(row);
    examination[r] = weight > 0 ? weighted / weight : (row[0] as number);
  }
  return {
    attractiveness: em.alpha,
    satisfaction: null,
    relevance: em.alpha,
    examination,
    params: { gammaByPrevClick: matrix },
    iterations: em.iterations,
    converged: em.converged,
  };
}
