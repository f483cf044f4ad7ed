import { discount, sigInterp, sigmoidTable, sortByScoreDesc, type Objective } from '../objectives.js';
import type { ClickLog } from './click-log.js';

export type Debiasing = 'none' | 'ips' | 'unbiased-lambdamart';

/** Propensities are floored here before inverting (max weight 10); why 0.1: see README "Click training". */
export const DEFAULT_PROPENSITY_CLIP = 0.1;

/** 1 / max(p_k, clip) per position (index 0 = position 1). */
export function ipsWeights(propensities: readonly number[], clip: number): Float64Array {
  if (!(clip > 0 && clip <= 1)) throw new RangeError(`clip must be in (0, 1], got ${clip}`);
  return Float64Array.from(propensities, (p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`propensities[${i}] must be in [0, 1], got ${p}`);
    return 1 / Math.max(p, clip);
  });
}

/** t+ and t−, index 0 = position 1 = 1. */
export interface PositionBiasCurve {
  clicked: number[];
  unclicked: number[];
}

export interface ClickObjectiveOptions {
  debiasing: Debiasing;
  /** ips: weight per position (index 0 = position 1); positions past the end use the last one. */
  weights?: Float64Array;
  /** unbiased-lambdamart: Hu et al.'s p; t± = (ratio)^(1/(p+1)). */
  biasNorm?: number;
  /** unbiased-lambdamart: t+ is floored here in the pair weights (t− at 1; not in the reported curve). */
  clip?: number;
  truncationLevel?: number;
  sigma?: number;
  /** Scale a pair's |ΔDCG| by 1/(0.01 + |Δs|) (the pair half of LightGBM's lambdarank_norm). */
  normalize?: boolean;
}

export interface ClickObjective extends Objective {
  /** The current t+ / t− (unbiased-lambdamart), else null. */
  positionBias(): PositionBiasCurve | null;
}

/**
 * LambdaMART on a ClickLog. For every ordered pair (a above b) of a group the weight is
 *   none:                 C[a][b]                       (sessions with a clicked, b not)
 *   ips:                  clicks[a] / max(p_pos(a), clip) (Joachims et al. 2017: a clicked against every other b)
 *   unbiased-lambdamart:  C[a][b] / (max(t+_pos(a), clip) · max(t−_pos(b), 1)) (Hu et al. 2019, t± re-estimated after every call)
 * times |ΔDCG| of swapping a and b in the current score order with gains click 1 / no click 0,
 * and the logistic pair loss. Gains are 0/1 per session and the normaliser is the ideal DCG of one
 * click (1): a per-session ideal DCG would need each session's click count and would make the IPS
 * sum non-linear in the clicks (biased). Everything is scaled by groups / sessions so a group
 * weighs its share of the sessions and an average group about 1 (λ and minChildHessian keep their
 * usual scale). No per-group log normalisation: it would undo the session counts.
 */
export function clickObjective(log: ClickLog, opts: ClickObjectiveOptions): ClickObjective {
  const { groups, position, pairOffset } = log;
  const mode = opts.debiasing;
  const trunc = opts.truncationLevel ?? 30;
  const sigma = opts.sigma ?? 1;
  const norm = opts.normalize ?? true;
  const biasNorm = opts.biasNorm ?? 0;
  const clip = opts.clip ?? 0.1;
  const numGroups = groups.length - 1;
  let totalSessions = 0;
  let maxGroup = 0;
  let maxPos = 1;
  for (let g = 0; g < numGroups; g++) {
    totalSessions += log.sessions[g]!;
    maxGroup = Math.max(maxGroup, groups[g + 1]! - groups[g]!);
  }
  for (let r = 0; r < log.numRows; r++) maxPos = Math.max(maxPos, position[r]!);
  const scale = totalSessions > 0 ? numGroups / totalSessions : 0;

  // Ordered-pair counts (a above b), row-major per group like clickedNotClicked.
  const base = mode === 'ips' ? clickedAgainstAll(log) : log.clickedNotClicked;
  // Per-position factors of the clicked side (ua) and the other side (ub).
  const ua = new Float64Array(maxPos).fill(1);
  const ub = new Float64Array(maxPos).fill(1);
  if (mode === 'ips') {
    const w = opts.weights;
    if (!w || w.length === 0) throw new Error('ips needs a weight per position');
    for (let k = 0; k < maxPos; k++) ua[k] = w[Math.min(k, w.length - 1)]!;
  }
  const tPlus = new Float64Array(maxPos).fill(1);
  const tMinus = new Float64Array(maxPos).fill(1);
  const lossPlus = new Float64Array(maxPos);
  const lossMinus = new Float64Array(maxPos);
  const learn = mode === 'unbiased-lambdamart';

  const rank = Int32Array.from({ length: log.numRows }, (_, i) => i);
  const { table: sigTable, lo: sigLo, factor: sigFactor } = sigmoidTable(sigma);
  const spTable = learn ? softplusTable() : new Float64Array(0);
  const spLast = 2 * SOFTPLUS_STEPS;
  const sigLast = sigTable[sigTable.length - 2]!;
  const disc = Float64Array.from({ length: maxGroup }, (_, i) => discount(i));
  // Per-group scratch in rank order: logged index, score, side factors, gradient, hessian.
  const sIdx = new Int32Array(maxGroup);
  const sPos = new Int32Array(maxGroup);
  const sScore = new Float64Array(maxGroup);
  const sUa = new Float64Array(maxGroup);
  const sUb = new Float64Array(maxGroup);
  const sGrad = new Float64Array(maxGroup);
  const sHess = new Float64Array(maxGroup);

  return {
    name: 'lambdarank',
    initScore: () => 0,
    positionBias: () => (learn ? { clicked: Array.from(tPlus), unclicked: Array.from(tMinus) } : null),
    gradients(scores, grad, hess) {
      grad.fill(0);
      hess.fill(0);
      if (learn) {
        // A non-click at position 1 (always examined) is the most telling one, so a lower
        // position's non-click is never weighted up: t− is floored at 1 (README; without it t−
        // fed back on itself under strong bias, falling to 0.08 at position 10).
        for (let k = 0; k < maxPos; k++) {
          ua[k] = 1 / Math.max(tPlus[k]!, clip);
          ub[k] = 1 / Math.max(tMinus[k]!, 1);
        }
        lossPlus.fill(0);
        lossMinus.fill(0);
      }
      for (let g = 0; g < numGroups; g++) {
        const start = groups[g]!;
        const cnt = groups[g + 1]! - start;
        if (cnt < 2 || log.sessions[g] === 0) continue;
        const off = pairOffset[g]!;
        sortByScoreDesc(rank, start, cnt, scores);
        for (let i = 0; i < cnt; i++) {
          const r = rank[start + i]!;
          const p = position[r]! - 1;
          sIdx[i] = r - start;
          sPos[i] = p;
          sScore[i] = scores[r]!;
          sUa[i] = ua[p]!;
          sUb[i] = ub[p]!;
          sGrad[i] = 0;
          sHess[i] = 0;
        }
        const scaleByDistance = norm && sScore[0] !== sScore[cnt - 1];
        for (let i = 0; i < cnt - 1 && i < trunc; i++) {
          const a = sIdx[i]!;
          const si = sScore[i]!;
          const di = disc[i]!;
          for (let j = i + 1; j < cnt; j++) {
            const b = sIdx[j]!;
            const cab = base[off + a * cnt + b]!;
            const cba = base[off + b * cnt + a]!;
            if (cab === 0 && cba === 0) continue;
            const wab = cab * sUa[i]! * sUb[j]!;
            const wba = cba * sUa[j]! * sUb[i]!;
            const delta = si - sScore[j]!; // ≥ 0: i is ranked above j
            const dcg = di - disc[j]!;
            const dz = scaleByDistance ? dcg / (0.01 + delta) : dcg;
            // ρ = 1/(1 + e^{σΔ}): the a-above-b pair's |dL/ds|/σ; the b-above-a pair's is 1 − ρ.
            const rho = delta >= -sigLo ? sigLast : sigInterp(sigTable, (delta - sigLo) * sigFactor);
            const lambda = -sigma * dz * (wab * rho - wba * (1 - rho));
            const h = sigma * sigma * dz * rho * (1 - rho) * (wab + wba);
            sGrad[i]! += lambda;
            sGrad[j]! -= lambda;
            sHess[i]! += h;
            sHess[j]! += h;
            if (learn) {
              // Hu et al. Algorithm 1: each pair's loss, divided by the other side's bias. The plain
              // logistic loss, without |ΔDCG|: that factor depends on the current rank, which the
              // logged position predicts, and leaked the rank discount into t± (README).
              const pi = sPos[i]!;
              const pj = sPos[j]!;
              // log(1 + e^{−σΔ}) from a table (log1p∘exp per pair was half the time of this mode);
              // the reversed pair's loss is σΔ + the same.
              const x = sigma * delta * SOFTPLUS_FACTOR;
              const down = x >= SOFTPLUS_STEPS ? spTable[spLast]! : sigInterp(spTable, x);
              const lab = cab * down;
              const lba = cba * (sigma * delta + down);
              lossPlus[pi]! += lab / tMinus[pj]!;
              lossMinus[pj]! += lab / tPlus[pi]!;
              lossPlus[pj]! += lba / tMinus[pi]!;
              lossMinus[pi]! += lba / tPlus[pj]!;
            }
          }
        }
        for (let i = 0; i < cnt; i++) {
          const r = rank[start + i]!;
          grad[r] = sGrad[i]! * scale;
          hess[r] = sHess[i]! * scale;
        }
      }
      if (learn) {
        updateBias(tPlus, lossPlus, biasNorm);
        updateBias(tMinus, lossMinus, biasNorm);
      }
    },
  };
}

const SOFTPLUS_STEPS = 4096;
const SOFTPLUS_MAX = 25;
const SOFTPLUS_FACTOR = SOFTPLUS_STEPS / SOFTPLUS_MAX;
let softplus: Float64Array | null = null;

/** log(1 + e^{−x}) on [0, 25] in 4 096 steps, values and slopes interleaved (error < 2e-6); 0 beyond. */
function softplusTable(): Float64Array {
  if (softplus) return softplus;
  const at = (i: number) => (i > SOFTPLUS_STEPS ? 0 : Math.log1p(Math.exp(-i / SOFTPLUS_FACTOR)));
  const table = new Float64Array(2 * (SOFTPLUS_STEPS + 1));
  for (let i = 0; i <= SOFTPLUS_STEPS; i++) {
    table[2 * i] = at(i);
    table[2 * i + 1] = at(i + 1) - at(i);
  }
  softplus = table;
  return table;
}

/** t_k = (L_k / L_1)^(1/(p+1)); positions without any pair loss (or a zero L_1) keep their value. */
function updateBias(t: Float64Array, loss: Float64Array, p: number): void {
  const first = loss[0]!;
  if (!(first > 0)) return;
  const exponent = 1 / (p + 1);
  for (let k = 0; k < t.length; k++) if (loss[k]! > 0) t[k] = (loss[k]! / first) ** exponent;
}

/** Per group, count[a][b] = clicks[a] for b ≠ a: every session that clicked a puts a above every other row. */
function clickedAgainstAll(log: ClickLog): Float64Array {
  const out = new Float64Array(log.clickedNotClicked.length);
  for (let g = 0; g + 1 < log.groups.length; g++) {
    const start = log.groups[g]!;
    const k = log.groups[g + 1]! - start;
    const off = log.pairOffset[g]!;
    for (let a = 0; a < k; a++) {
      const c = log.clicks[start + a]!;
      for (let b = 0; b < k; b++) if (b !== a) out[off + a * k + b] = c;
    }
  }
  return out;
}
