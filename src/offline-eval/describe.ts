import { metricLabel } from './estimators/metrics.js';
import type { CandidateEvaluation, EvalMetric } from './types.js';

const percent = (x: number, digits: number): string => `${(x * 100).toFixed(digits)} %`;
const signed = (x: number): string => `${x > 0 ? '+' : ''}${percent(x, 1)}`;

/**
 * One sentence: "predicted MRR +4.1 % [2.0 %, 6.3 %]; 93 % of the candidate's top-10 has logged
 * evidence", the relative difference of `primaryMetric` (default: the first metric evaluated);
 * with too little coverage, that there is no estimate and why.
 */
export function describeEvaluation(e: CandidateEvaluation, primaryMetric?: EvalMetric): string {
  const evidence = `${percent(e.coverage, 0)} of the candidate's top-${e.depth} has logged evidence`;
  if (!e.enoughCoverage) {
    if (e.searches === 0) return "no estimate: the window holds no logged searches of the candidate's queries";
    return `no estimate: only ${evidence}, below the ${percent(e.minCoverage, 0)} needed to say anything`;
  }
  const chosen = e.metrics.find((m) => m.metric === (primaryMetric ?? e.metrics[0]?.metric));
  if (chosen === undefined) return `no metric evaluated; ${evidence}`;
  const { estimate, interval } = chosen.relativeDifference;
  return `predicted ${metricLabel(chosen.metric)} ${signed(estimate)} [${percent(interval[0], 1)}, ${percent(interval[1], 1)}]; ${evidence}`;
}
