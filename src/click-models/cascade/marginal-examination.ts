import type { EncodedLog } from '../sessions/encode.js';

/**
 * Examination implied by a DBN-family model, averaged over the training sessions:
 * ε_1 = 1, ε_{r+1} = ε_r · λ · (1 − α_r σ_r) (CMWS §3.8 and §3.10). Cascade is the case
 * σ = 1, λ = 1; SDBN the case λ = 1.
 */
export function meanMarginalExamination(log: EncodedLog, alpha: Float64Array, sigma: Float64Array | null, lambda: number): Float64Array {
  const { depth } = log;
  const sum = new Float64Array(depth);
  const seen = new Float64Array(depth);
  for (let s = 0; s < log.sessionCount; s += 1) {
    const base = s * depth;
    const length = log.lengths[s] as number;
    let eps = 1;
    for (let r = 0; r < length; r += 1) {
      const p = log.pairs[base + r] as number;
      sum[r] = (sum[r] as number) + eps;
      seen[r] = (seen[r] as number) + 1;
      const sat = sigma === null ? 1 : (sigma[p] as number);
      eps *= lambda * (1 - (alpha[p] as number) * sat);
    }
  }
  return sum.map((v, r) => ((seen[r] as number) > 0 ? v / (seen[r] as number) : 0));
}
