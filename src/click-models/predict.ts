import type { ClickProbabilities, SerializedClickModel } from './types.js';

/**
 * Click probabilities of one session from its per-rank parameters (CMWS §3.10).
 * `alpha` / `sigma` hold the pair parameters at each rank, already resolved (unseen
 * pairs get the model defaults). `clicks` are only read for conditional probabilities.
 */
export function predictClicks(
  model: SerializedClickModel,
  alpha: readonly number[],
  sigma: readonly number[] | null,
  clicks: readonly boolean[],
): ClickProbabilities {
  const n = alpha.length;
  const conditional = new Array<number>(n);
  const marginal = new Array<number>(n);
  const at = (values: readonly number[] | undefined, i: number, fallback: number): number => values?.[i] ?? fallback;

  switch (model.algorithm) {
    case 'ctr':
      for (let r = 0; r < n; r += 1) conditional[r] = marginal[r] = alpha[r] as number;
      break;
    case 'coec':
      for (let r = 0; r < n; r += 1) {
        conditional[r] = marginal[r] = Math.min(1, (alpha[r] as number) * at(model.params.rankCtr, r, 0));
      }
      break;
    case 'pbm':
      for (let r = 0; r < n; r += 1) {
        conditional[r] = marginal[r] = (alpha[r] as number) * at(model.params.gamma, r, 0);
      }
      break;
    case 'ubm':
      ubm(model, alpha, clicks, conditional, marginal);
      break;
    case 'cascade': {
      // CMWS §3.4: nothing below the first click is examined.
      let clickedAbove = false;
      let examined = 1;
      for (let r = 0; r < n; r += 1) {
        const a = alpha[r] as number;
        conditional[r] = clickedAbove ? 0 : a;
        marginal[r] = examined * a;
        examined *= 1 - a;
        if (clicks[r] === true) clickedAbove = true;
      }
      break;
    }
    case 'dbn':
    case 'sdbn':
      dbn(model.params.continuation ?? 1, alpha, sigma, clicks, conditional, marginal);
      break;
  }
  return { conditional, marginal };
}

/**
 * UBM (CMWS §3.5). Conditional: α_r γ_{r,r'} with r' the observed previous click.
 * Marginal: sum over the unobserved previous click, tracking P(last click so far = r')
 * forward through the ranks.
 */
function ubm(
  model: SerializedClickModel,
  alpha: readonly number[],
  clicks: readonly boolean[],
  conditional: number[],
  marginal: number[],
): void {
  const gamma = model.params.gammaByPrevClick ?? [];
  const n = alpha.length;
  const lastClick = new Float64Array(n + 1);
  lastClick[0] = 1;
  let prev = 0;
  for (let r = 0; r < n; r += 1) {
    const a = alpha[r] as number;
    const row = gamma[r] ?? [];
    conditional[r] = a * (row[prev] ?? 0);
    if (clicks[r] === true) prev = r + 1;
    let pClick = 0;
    for (let q = 0; q <= r; q += 1) {
      const mass = lastClick[q] as number;
      if (mass === 0) continue;
      const c = a * (row[q] ?? 0);
      pClick += mass * c;
      lastClick[q] = mass * (1 - c);
    }
    lastClick[r + 1] = pClick;
    marginal[r] = pClick;
  }
}

/**
 * DBN (CMWS §3.8). Marginal: ε_1 = 1, ε_{r+1} = ε_r λ (1 − α_r σ_r), P(C_r) = α_r ε_r.
 * Conditional: after a click the user goes on with probability λ(1 − σ); after a skip
 * the examination belief is updated by Bayes' rule, ε ← λ ε (1 − α) / (1 − α ε).
 */
function dbn(
  lambda: number,
  alpha: readonly number[],
  sigma: readonly number[] | null,
  clicks: readonly boolean[],
  conditional: number[],
  marginal: number[],
): void {
  let condExam = 1;
  let margExam = 1;
  for (let r = 0; r < alpha.length; r += 1) {
    const a = alpha[r] as number;
    const s = sigma?.[r] ?? 1;
    conditional[r] = a * condExam;
    marginal[r] = a * margExam;
    margExam *= lambda * (1 - a * s);
    if (clicks[r] === true) condExam = lambda * (1 - s);
    else condExam = (lambda * condExam * (1 - a)) / Math.max(1 - a * condExam, 1e-12);
  }
}
