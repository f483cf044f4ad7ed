/**
 * Per pair and method: the searches needed for 80 % power at α = 0.05, and independent replicate
 * experiments at that size (power actually reached, and whether significant results name the
 * truly better ranker).
 */
import { armMoments, interleavingUnitsForPower, normalQuantile, type RatioSums } from '../../src/stats/index.js';
import { abVerdict, interleavingVerdict, simulateArm, simulateInterleaving, type AbMetric, type Verdict } from './experiments.js';
import type { BenchRanker } from './rankers.js';
import { createRng, type Population } from './users.js';

export interface Settings {
  readonly seed: number;
  readonly abPilotSessions: number;
  readonly ilPilotUnits: number;
  /** Upper bound of the grown interleaving pilot. */
  readonly ilPilotMaxUnits: number;
  readonly maxReplicates: number;
  readonly minReplicates: number;
  /** Searches simulated per pair for the replicate check (interleaving's are ~20× dearer). */
  readonly ilReplicateBudget: number;
  readonly abReplicateBudget: number;
}

export interface Replicates {
  readonly runs: number;
  readonly significant: number;
  readonly correct: number;
}

export interface PairMeasurement {
  readonly better: BenchRanker;
  readonly worse: BenchRanker;
  readonly gap: number;
  readonly interleavingQueries: number;
  readonly ctr: { queries: number; wrongWay: boolean };
  readonly mrr: { queries: number; wrongWay: boolean };
  readonly il: Replicates;
  readonly ctrReplicates: Replicates;
  readonly mrrReplicates: Replicates;
}

const Z = normalQuantile(0.975) + normalQuantile(0.8);
type ArmPilot = { ctr: RatioSums; mrr: RatioSums; searches: number };

/** Every ranker served to the same simulated users (common random numbers), once per population. */
export function abPilots(rankers: readonly BenchRanker[], population: Population, s: Settings): Map<BenchRanker, ArmPilot> {
  return new Map(rankers.map((r) => [r, simulateArm(createRng(0), population, r, s.abPilotSessions, s.seed * 7919)]));
}

/** Sessions per arm for Welch at 80 % power: (z₀.₉₇₅ + z₀.₈)²(v_A + v_B)/δ², v the delta-method per-session variances. */
function abPlan(control: ArmPilot, variant: ArmPilot, metric: AbMetric, s: Settings) {
  const c = armMoments(control[metric]);
  const v = armMoments(variant[metric]);
  const delta = v.mean! - c.mean!;
  const sessionsPerArm = Math.ceil((Z * Z * (c.variance! + v.variance!)) / (delta * delta));
  const searchesPerSession = (control.searches + variant.searches) / (2 * s.abPilotSessions);
  return { delta, sessionsPerArm, queries: Math.round(2 * sessionsPerArm * searchesPerSession) };
}

function replicate(queriesEach: number, budget: number, s: Settings, run: (i: number) => Verdict, truth: 1 | -1): Replicates {
  const affordable = Math.min(s.maxReplicates, Math.floor(budget / Math.max(1, queriesEach)));
  const runs = affordable >= s.minReplicates ? affordable : 0;
  let significant = 0;
  let correct = 0;
  for (let i = 0; i < runs; i += 1) {
    const v = run(i);
    if (v.significant) significant += 1;
    if (v.significant && v.direction === truth) correct += 1;
  }
  return { runs, significant, correct };
}

export function measurePair(
  pair: { a: BenchRanker; b: BenchRanker; gap: number },
  index: number,
  population: Population,
  pilots: ReadonlyMap<BenchRanker, ArmPilot>,
  labels: ReadonlyMap<string, number>,
  s: Settings,
): PairMeasurement {
  // Alternate which side is the variant so nothing depends on the better ranker being first.
  const [a, b] = index % 2 === 0 ? [pair.a, pair.b] : [pair.b, pair.a];
  const truth: 1 | -1 = a.ndcg10 > b.ndcg10 ? 1 : -1;
  let pilotUnits = s.ilPilotUnits;
  let pilot = simulateInterleaving(createRng(s.seed * 31 + index), population, a, b, labels, pilotUnits, `pilot-${index}`);
  let units = interleavingUnitsForPower(pilot.meanY, pilot.varianceY);
  // A pilot much smaller than its answer estimates it poorly: grow it to 20× the solved size (bounded).
  if (units !== null && units * 20 > pilotUnits && pilotUnits < s.ilPilotMaxUnits) {
    pilotUnits = Math.min(s.ilPilotMaxUnits, Math.ceil(units * 20));
    pilot = simulateInterleaving(createRng(s.seed * 37 + index), population, a, b, labels, pilotUnits, `pilot2-${index}`);
    units = interleavingUnitsForPower(pilot.meanY, pilot.varianceY);
  }
  const ilUnits = units === null ? null : Math.ceil(units);
  const interleavingQueries = ilUnits === null ? Infinity : Math.round((ilUnits * pilot.searches) / pilotUnits);
  // Control = b and variant = a in the A/B test too, so +1 means "a is better" for every method.
  const ctr = abPlan(pilots.get(b)!, pilots.get(a)!, 'ctr', s);
  const mrr = abPlan(pilots.get(b)!, pilots.get(a)!, 'mrr', s);
  const il =
    ilUnits === null
      ? { runs: 0, significant: 0, correct: 0 }
      : replicate(
          interleavingQueries,
          s.ilReplicateBudget,
          s,
          (i) =>
            interleavingVerdict(
              simulateInterleaving(createRng(s.seed * 1e6 + index * 1000 + i), population, a, b, labels, ilUnits, `rep-${index}-${i}`).sums,
            ),
          truth,
        );
  const abReplicates = (metric: AbMetric, plan: ReturnType<typeof abPlan>) =>
    replicate(
      plan.queries,
      s.abReplicateBudget,
      s,
      (i) => {
        const rng = createRng(s.seed * 2e6 + index * 1000 + i + (metric === 'mrr' ? 500 : 0));
        const control = simulateArm(rng, population, b, plan.sessionsPerArm);
        const variant = simulateArm(rng, population, a, plan.sessionsPerArm);
        return abVerdict(control[metric], variant[metric]);
      },
      truth,
    );
  const [better, worse] = truth === 1 ? [a, b] : [b, a];
  return {
    better,
    worse,
    gap: pair.gap,
    interleavingQueries,
    ctr: { queries: ctr.queries, wrongWay: Math.sign(ctr.delta) !== truth },
    mrr: { queries: mrr.queries, wrongWay: Math.sign(mrr.delta) !== truth },
    il,
    ctrReplicates: abReplicates('ctr', ctr),
    mrrReplicates: abReplicates('mrr', mrr),
  };
}
