/**
 * Best split of one leaf from its gradient histogram.
 * Histogram layout: for each feature f, slots offsets[f] … offsets[f] + numBins[f], each slot
 * three doubles (sum gradient, sum hessian, count); the last slot is the missing bin.
 */
export interface SplitParams {
  lambda: number;
  minDataInLeaf: number;
  minChildHessian: number;
  minSplitGain: number;
}

export interface SplitCandidate {
  gain: number;
  feature: number;
  /** Rows with bin ≤ bin go left. */
  bin: number;
  defaultLeft: boolean;
  leftG: number;
  leftH: number;
  leftCount: number;
  rightG: number;
  rightH: number;
  rightCount: number;
}

export function leafObjective(g: number, h: number, lambda: number): number {
  return (g * g) / (h + lambda);
}

export function findBestSplit(
  hist: Float64Array,
  features: ArrayLike<number>,
  numBins: Int32Array,
  offsets: Int32Array,
  totalG: number,
  totalH: number,
  totalCount: number,
  p: SplitParams,
): SplitCandidate | null {
  const { lambda, minDataInLeaf, minChildHessian } = p;
  const parentScore = leafObjective(totalG, totalH, lambda);
  let best: SplitCandidate | null = null;
  let bestGain = p.minSplitGain;
  for (let j = 0; j < features.length; j++) {
    const f = features[j]!;
    const nb = numBins[f]!;
    if (nb < 2) continue;
    const base = offsets[f]! * 3;
    const miss = base + nb * 3;
    const mg = hist[miss]!;
    const mh = hist[miss + 1]!;
    const mc = hist[miss + 2]!;
    let lg = 0;
    let lh = 0;
    let lc = 0;
    let bestB = -1;
    let bestDir = 0;
    let featGain = bestGain;
    for (let b = 0; b < nb - 1; b++) {
      const k = base + b * 3;
      const c = hist[k + 2]!;
      // An empty bin gives the same partition as the previous threshold: nothing new to score.
      if (c === 0) continue;
      lg += hist[k]!;
      lh += hist[k + 1]!;
      lc += c;
      // Missing rows go right, then (if there are any) left: XGBoost's two-direction scan.
      if (lc >= minDataInLeaf && totalCount - lc >= minDataInLeaf && lh >= minChildHessian && totalH - lh >= minChildHessian) {
        const gr = totalG - lg;
        const dl = lh + lambda;
        const dr = totalH - lh + lambda;
        // One division instead of two: the scan is division-bound.
        const gain = (lg * lg * dr + gr * gr * dl) / (dl * dr) - parentScore;
        if (gain > featGain) {
          featGain = gain;
          bestB = b;
          bestDir = 0;
        }
      }
      if (mc > 0) {
        const gl = lg + mg;
        const hl = lh + mh;
        const cl = lc + mc;
        if (cl >= minDataInLeaf && totalCount - cl >= minDataInLeaf && hl >= minChildHessian && totalH - hl >= minChildHessian) {
          const gr = totalG - gl;
          const dl = hl + lambda;
          const dr = totalH - hl + lambda;
          const gain = (gl * gl * dr + gr * gr * dl) / (dl * dr) - parentScore;
          if (gain > featGain) {
            featGain = gain;
            bestB = b;
            bestDir = 1;
          }
        }
      }
    }
    if (bestB < 0) continue;
    // Recompute the winning partition's sums once instead of materialising every candidate.
    let gl = 0;
    let hl = 0;
    let cl = 0;
    for (let b = 0; b <= bestB; b++) {
      const k = base + b * 3;
      gl += hist[k]!;
      hl += hist[k + 1]!;
      cl += hist[k + 2]!;
    }
    if (bestDir === 1) {
      gl += mg;
      hl += mh;
      cl += mc;
    }
    bestGain = featGain;
    best = {
      gain: featGain,
      feature: f,
      bin: bestB,
      // With no missing rows here, send future NaNs to the side that saw more data.
      defaultLeft: mc > 0 ? bestDir === 1 : hl >= totalH - hl,
      leftG: gl,
      leftH: hl,
      leftCount: cl,
      rightG: totalG - gl,
      rightH: totalH - hl,
      rightCount: totalCount - cl,
    };
  }
  return best;
}
