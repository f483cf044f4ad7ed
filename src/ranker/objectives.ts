/**
 * Training objectives: first and second derivatives of the loss w.r.t. the raw score.
 * The sign convention is "gradient of a loss to minimise": leaf value = −G / (H + λ).
 */
export interface Objective {
  readonly name: 'lambdarank' | 'binary';
  /** Raw score every row starts from (also the exported model's base score). */
  initScore(labels: Float32Array): number;
  gradients(scores: Float64Array, grad: Float64Array, hess: Float64Array): void;
}

export interface LambdaRankOptions {
  /** Only pairs whose higher-ranked member sits in the top `truncationLevel` (LightGBM's default 30). */
  truncationLevel?: number;
  sigma?: number;
  /** LightGBM's `lambdarank_norm`: scale by 1/(0.01+|Δs|) and log2(1+Σλ)/Σλ per query. */
  normalize?: boolean;
}

/** Gain 2^label − 1 (the "exponential gain" used by XGBoost, LightGBM and our NDCG metric). */
export const labelGain = (label: number): number => 2 ** label - 1;
/** Position discount for 0-based rank i. */
export const discount = (i: number): number => 1 / Math.log2(i + 2);

/** 1 / (ideal DCG@k) per query, 0 when the query has no relevant row (it then yields no pairs). */
export function inverseMaxDcg(labels: Float32Array, groups: Int32Array, k: number): Float64Array {
  const out = new Float64Array(groups.length - 1);
  for (let q = 0; q < out.length; q++) {
    const sorted = Array.from(labels.subarray(groups[q]!, groups[q + 1]!)).sort((a, b) => b - a);
    let dcg = 0;
    for (let i = 0; i < Math.min(k, sorted.length); i++) dcg += labelGain(sorted[i]!) * discount(i);
    out[q] = dcg > 0 ? 1 / dcg : 0;
  }
  return out;
}

/**
 * LambdaMART with the NDCG gradient (Burges 2010) in LightGBM's formulation: every pair with
 * different labels inside a query, weighted by |ΔNDCG| of swapping them, logistic pair loss.
 */
export function lambdaRankObjective(labels: Float32Array, groups: Int32Array, opts: LambdaRankOptions = {}): Objective {
  const trunc = opts.truncationLevel ?? 30;
  const sigma = opts.sigma ?? 1;
  const norm = opts.normalize ?? true;
  const invMax = inverseMaxDcg(labels, groups, trunc);
  let maxGroup = 0;
  for (let q = 0; q + 1 < groups.length; q++) maxGroup = Math.max(maxGroup, groups[q + 1]! - groups[q]!);
  // Each query's rows in the previous iteration's score order: re-sorting a nearly sorted list
  // by insertion is a few predictable compares per row.
  const rank = Int32Array.from({ length: labels.length }, (_, i) => i);
  const gains = new Float64Array(labels.length);
  for (let i = 0; i < labels.length; i++) gains[i] = labelGain(labels[i]!);
  const { table: sigTable, lo: sigLo, factor: sigFactor } = sigmoidTable(sigma);
  const sigFirst = sigTable[0]!;
  const sigLast = sigTable[sigTable.length - 2]!;
  const disc = new Float64Array(maxGroup);
  for (let i = 0; i < maxGroup; i++) disc[i] = discount(i);
  // Per-query scratch in rank order, allocated once: labels, gains, scores, and the lambdas
  // and hessians accumulated by rank position (scattered back to rows at the end).
  const sLabel = new Float64Array(maxGroup);
  const sGain = new Float64Array(maxGroup);
  const sScore = new Float64Array(maxGroup);
  const sGrad = new Float64Array(maxGroup);
  const sHess = new Float64Array(maxGroup);

  return {
    name: 'lambdarank',
    initScore: () => 0,
    gradients(scores, grad, hess) {
      grad.fill(0);
      hess.fill(0);
      for (let q = 0; q + 1 < groups.length; q++) {
        const start = groups[q]!;
        const cnt = groups[q + 1]! - start;
        const inv = invMax[q]!;
        if (cnt < 2 || inv === 0) continue;
        sortByScoreDesc(rank, start, cnt, scores);
        for (let i = 0; i < cnt; i++) {
          const r = rank[start + i]!;
          sLabel[i] = labels[r]!;
          sGain[i] = gains[r]!;
          sScore[i] = scores[r]!;
          sGrad[i] = 0;
          sHess[i] = 0;
        }
        // Pairs already far apart in score matter less (LightGBM's lambdarank_norm).
        const scaleByDistance = norm && sScore[0] !== sScore[cnt - 1];
        let sumLambdas = 0;
        for (let i = 0; i < cnt - 1 && i < trunc; i++) {
          const li = sLabel[i]!;
          const gi = sGain[i]!;
          const si = sScore[i]!;
          const di = disc[i]!;
          let gradI = sGrad[i]!;
          let hessI = sHess[i]!;
          for (let j = i + 1; j < cnt; j++) {
            // Branch-free: the higher label's side as a sign (0 for equal labels, whose pair
            // then adds exact zeros); a skipped pair or a high/low choice per pair mispredicts
            // on random labels and was most of this loop's time.
            const lj = sLabel[j]!;
            const sign = +(li > lj) - +(li < lj);
            const deltaScore = (si - sScore[j]!) * sign;
            let deltaNdcg = (gi - sGain[j]!) * sign * Math.abs(di - disc[j]!) * inv;
            if (scaleByDistance) deltaNdcg /= 0.01 + Math.abs(deltaScore);
            // Inlined sigmoidTable lookup (a closure call per pair is measurable here).
            const pLambda0 =
              deltaScore <= sigLo ? sigFirst : deltaScore >= -sigLo ? sigLast : sigInterp(sigTable, (deltaScore - sigLo) * sigFactor);
            const pHess = pLambda0 * (1 - pLambda0) * sigma * sigma * deltaNdcg;
            const pLambda = -sigma * deltaNdcg * pLambda0;
            gradI += sign * pLambda;
            hessI += pHess;
            sGrad[j]! -= sign * pLambda;
            sHess[j]! += pHess;
            sumLambdas -= 2 * pLambda;
          }
          sGrad[i] = gradI;
          sHess[i] = hessI;
        }
        const factor = norm && sumLambdas > 0 ? Math.log2(1 + sumLambdas) / sumLambdas : 1;
        for (let i = 0; i < cnt; i++) {
          const r = rank[start + i]!;
          grad[r] = sGrad[i]! * factor;
          hess[r] = sHess[i]! * factor;
        }
      }
    },
  };
}

/**
 * Sorts rank[start, start + cnt) (one query's rows, in any order) by score descending, ties by
 * row: a total order, so the result does not depend on the order it starts from. Insertion sort
 * for short lists (the previous iteration's order is nearly sorted), a typed-array sort beyond.
 */
export function sortByScoreDesc(rank: Int32Array, start: number, cnt: number, scores: Float64Array): void {
  if (cnt > 48) {
    rank.subarray(start, start + cnt).sort((a, b) => scores[b]! - scores[a]! || a - b);
    return;
  }
  for (let i = start + 1; i < start + cnt; i++) {
    const row = rank[i]!;
    const s = scores[row]!;
    let j = i - 1;
    for (; j >= start; j--) {
      const other = rank[j]!;
      const so = scores[other]!;
      if (so > s || (so === s && other < row)) break;
      rank[j + 1] = other;
    }
    rank[j + 1] = row;
  }
}

/** Linear interpolation in the table at position t (value, slope interleaved). */
export function sigInterp(table: Float64Array, t: number): number {
  const i = t | 0;
  const k = 2 * i;
  return table[k]! + table[k + 1]! * (t - i);
}

/**
 * 1 / (1 + exp(σ·x)) from a lookup table with linear interpolation: the pair loop calls it
 * ~10⁶ times per iteration on larger data. 4 096 steps over |σx| ≤ 25 (values and slopes
 * interleaved, 64 KB, so it stays in cache; LightGBM's 2^20-entry step table is 8 MB and its
 * misses were most of the pair loop), error < 1e-5; outside, the curve is flat.
 */
export function sigmoidTable(sigma: number): { table: Float64Array; lo: number; factor: number } {
  const cached = sigmoidTables.get(sigma);
  if (cached) return cached;
  const built = buildSigmoidTable(sigma);
  sigmoidTables.set(sigma, built);
  return built;
}

const sigmoidTables = new Map<number, { table: Float64Array; lo: number; factor: number }>();

function buildSigmoidTable(sigma: number): { table: Float64Array; lo: number; factor: number } {
  const size = 4096;
  const lo = -25 / sigma;
  const factor = size / (-2 * lo);
  const at = (i: number) => 1 / (1 + Math.exp(sigma * (i / factor + lo)));
  // size + 1 points; entry i holds the value at point i and the step to point i + 1.
  const table = new Float64Array(2 * (size + 1));
  for (let i = 0; i <= size; i++) {
    table[2 * i] = at(i);
    table[2 * i + 1] = at(i + 1) - at(i);
  }
  return { table, lo, factor };
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Binary log-loss; the base score is the log-odds of the base rate so tree 1 starts calibrated. */
export function binaryObjective(labels: Float32Array): Objective {
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] !== 0 && labels[i] !== 1) throw new Error(`binary objective needs 0/1 labels, row ${i} has ${labels[i]}`);
  }
  return {
    name: 'binary',
    initScore(y) {
      let pos = 0;
      for (let i = 0; i < y.length; i++) pos += y[i]!;
      const rate = Math.min(Math.max(pos / Math.max(1, y.length), 1e-6), 1 - 1e-6);
      return Math.log(rate / (1 - rate));
    },
    gradients(scores, grad, hess) {
      for (let i = 0; i < scores.length; i++) {
        const p = sigmoid(scores[i]!);
        grad[i] = p - labels[i]!;
        hess[i] = Math.max(p * (1 - p), 1e-16);
      }
    },
  };
}
