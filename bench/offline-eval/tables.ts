/** The benchmark's tables: harvested propensities against the truth, the scores per estimator, the candidates. */
import type { PropensityEstimate } from '../../src/offline-eval/index.js';
import type { Prediction } from './naive.js';
import { Report, fixed, goal, seconds, signed, thousands } from './report.js';
import { pairOrdering, scoreMetric, type Scored } from './score.js';
import { examination, METRICS, type MetricValues, type UserModel } from './users.js';
import type { Candidate } from './world.js';

export interface EstimatorResult {
  name: string;
  predictions: (Prediction | null)[];
  ms: number;
  /** The library's coverage per candidate (empty for the naive estimator). */
  coverage: number[];
}

const SHORT: Record<string, string> = { mrr: 'MRR', clicks_per_search: 'clicks', 'ctr@10': 'ctr@10', abandonment_rate: 'aband.' };
const coverageOk = (v: number): boolean => v >= 0.9 && v <= 0.98;
const atLeast90 = (v: number): boolean => v >= 0.9;

export function printHarvest(report: Report, h: PropensityEstimate, users: UserModel, ms: number): void {
  const pbm = users.kind === 'pbm' ? users : null;
  let worst = 0;
  const rows = h.positions.map((p) => {
    const truth = pbm ? examination(pbm, p.position) : Number.NaN;
    const err = p.estimate - truth;
    if (pbm && Number.isFinite(err)) worst = Math.max(worst, Math.abs(err));
    return [
      String(p.position),
      fixed(p.estimate),
      `[${fixed(p.interval[0])}, ${fixed(p.interval[1])}]`,
      thousands(p.support),
      pbm ? fixed(truth) : '–',
      pbm ? signed(err, 3) : '–',
    ];
  });
  report.print(
    `Harvested propensities (${h.method}, ${thousands(h.harvestedPairs)} harvested pairs, ${seconds(ms)} s)` +
      (pbm
        ? `: largest error ${fixed(worst)} (goal ≤ 0.03: ${worst <= 0.03 ? 'met' : 'NOT met'})`
        : ': DBN users have no position-only curve to compare with'),
  );
  report.print();
  report.table(['position', ' estimate', ' 95 % interval', ' support', ' truth', ' error'], rows);
}

/** Prints the two score tables; returns the headline cells per estimator. */
export function printScores(
  report: Report,
  results: readonly EstimatorResult[],
  candidates: readonly Candidate[],
  trueValues: readonly MetricValues[],
  trueLifts: readonly MetricValues[],
): string[][] {
  // Scored over the rerankers of logged documents; the free candidates are listed per candidate.
  const scored = candidates.flatMap((c, i) => (c.scope === 'logged' ? [i] : []));
  const headline: string[][] = [];
  const main: string[][] = [];
  const errors: string[][] = [];
  for (const r of results) {
    const items: Scored[] = scored.map((i) => ({ trueLift: trueLifts[i]!, trueValue: trueValues[i]!, predicted: r.predictions[i]! }));
    const scores = METRICS.map((m) => scoreMetric(items, m));
    const pairs = pairOrdering(items);
    const mrr = scores[0]!;
    main.push([
      r.name,
      `${mrr.estimated}/${mrr.candidates}`,
      ...scores.flatMap((s) => [goal(s.coverage, coverageOk), goal(s.tau, atLeast90)]),
      `${goal(pairs.share, atLeast90)} (${pairs.correct}/${pairs.pairs})`,
      seconds(r.ms),
    ]);
    errors.push([r.name, ...scores.flatMap((s) => [signed(s.bias), fixed(s.rmse, 4)])]);
    headline.push([
      r.name,
      fixed(mrr.rmse, 4),
      goal(mrr.coverage, coverageOk),
      goal(mrr.tau, atLeast90),
      goal(pairs.share, atLeast90),
      goal(Math.min(...scores.map((s) => s.coverage)), coverageOk),
      goal(Math.min(...scores.map((s) => s.tau)), atLeast90),
    ]);
  }
  report.print(
    `Over the ${scored.length} rerankers of logged documents: interval coverage (goal 0.90–0.98), Kendall τ (goal ≥ 0.9), ` +
      'MRR pairs ordered (goal ≥ 0.9); ✗ = goal missed:',
  );
  report.print();
  report.table(
    [
      'estimator',
      ' estimated',
      ...METRICS.flatMap((m) => [` ${SHORT[m]} coverage`, ` ${SHORT[m]} τ`]),
      ' MRR pairs ordered',
      ' seconds (all candidates)',
    ],
    main,
  );
  report.print('Bias and RMSE of the predicted lift:');
  report.print();
  report.table(['estimator', ...METRICS.flatMap((m) => [` ${SHORT[m]} bias`, ` ${SHORT[m]} RMSE`])], errors);
  return headline;
}

export function printCandidates(
  report: Report,
  candidates: readonly Candidate[],
  results: readonly EstimatorResult[],
  trueValues: readonly MetricValues[],
  trueLifts: readonly MetricValues[],
): void {
  const withCoverage = results.find((r) => r.coverage.length > 0);
  report.print('Per candidate, MRR lift: predicted (✓ = the 95 % interval holds the true lift; – = no estimate):');
  report.print();
  report.table(
    ['candidate', 'documents', ' coverage', ' true MRR', ' true lift', ...results.map((r) => ` ${r.name}`)],
    candidates.map((c, i) => [
      c.name,
      c.scope,
      withCoverage ? fixed(withCoverage.coverage[i]!, 2) : '–',
      fixed(trueValues[i]!.mrr, 4),
      signed(trueLifts[i]!.mrr),
      ...results.map((r) => {
        const p = r.predictions[i];
        if (!p) return '–';
        const [lo, hi] = p.mrr.interval;
        return `${signed(p.mrr.estimate)} ${lo <= trueLifts[i]!.mrr && trueLifts[i]!.mrr <= hi ? '✓' : '✗'}`;
      }),
    ]),
  );
}
