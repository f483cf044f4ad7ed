import { discount } from '../objectives.js';
import type { ClickLog } from './click-log.js';

export interface ClickNdcg {
  model: number;
  logged: number;
  /** Groups that entered the mean (those with at least one click) and their sessions. */
  groups: number;
  sessions: number;
}

/**
 * Held-out metric on clicks: mean over groups (weighted by sessions) of NDCG@k of `scores`' order
 * of the group's rows, gains = IPS-weighted click rate of each row (clicks/sessions × weight of its
 * logged position; positions past the end of `weights` use the last weight); `logged` = the same
 * for the logged order. Linear gains (the rates are expected clicks, not grades); ties keep the
 * logged order, as the ranker's other metrics do. Groups without a click carry no preference and
 * are left out (counting them as 1 would pull model and logged towards each other).
 */
export function clickNdcg(log: ClickLog, scores: ArrayLike<number>, weights: Float64Array, k = 10): ClickNdcg {
  if (scores.length !== log.numRows) throw new RangeError(`scores: ${scores.length} values for ${log.numRows} rows`);
  if (weights.length === 0) throw new RangeError('weights must have at least one position');
  let model = 0;
  let logged = 0;
  let groups = 0;
  let sessions = 0;
  for (let g = 0; g + 1 < log.groups.length; g++) {
    const start = log.groups[g]!;
    const end = log.groups[g + 1]!;
    const n = log.sessions[g]!;
    if (n === 0) continue;
    const gain = (r: number) => (log.clicks[r]! / n) * weights[Math.min(log.position[r]!, weights.length) - 1]!;
    const rows = Array.from({ length: end - start }, (_, i) => start + i);
    const ideal = rows.map(gain).sort((x, y) => y - x);
    let idcg = 0;
    for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i]! * discount(i);
    if (!(idcg > 0)) continue;
    const byLog = [...rows].sort((a, b) => log.position[a]! - log.position[b]! || a - b);
    const byModel = [...rows].sort((a, b) => scores[b]! - scores[a]! || log.position[a]! - log.position[b]! || a - b);
    model += (n * dcgAt(byModel, gain, k)) / idcg;
    logged += (n * dcgAt(byLog, gain, k)) / idcg;
    groups++;
    sessions += n;
  }
  return sessions > 0
    ? { model: model / sessions, logged: logged / sessions, groups, sessions }
    : { model: 0, logged: 0, groups: 0, sessions: 0 };
}

function dcgAt(order: number[], gain: (r: number) => number, k: number): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, order.length); i++) dcg += gain(order[i]!) * discount(i);
  return dcg;
}
