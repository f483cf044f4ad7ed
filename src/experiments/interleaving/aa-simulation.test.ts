/**
 * A/A: two identical rankers, interleaved by the real code, clicked by simulated users, credited by
 * the real rules and tested by the clustered statistic. Units issue several queries, and about a
 * third of them are repeats of an earlier query id (a reload, the back button), which reproduce the
 * same list and, with the same intent, the same clicks: strongly correlated outcomes within a unit.
 * Fixed seeds make every run identical.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_PAIR_SUMS, addPairSums, interleavingPairTest, signTestPValue, unitPairSums } from '../../stats/index.js';
import { createRng, type SeededRng as Rng } from '../../random/index.js';
import { applyOutcome, creditClicks, queryOutcomes } from './credit.js';
import { interleave } from './team-draft.js';

const DOCS = Array.from({ length: 10 }, (_, i) => `d${i}`);
const RANKINGS = [
  { team: 'A', resultIds: DOCS },
  { team: 'B', resultIds: DOCS },
];

/** Cascade user: scans down, clicks with the intent's attractiveness, stops after a click with probability 0.6. */
function cascadeClicks(rng: Rng, order: readonly string[], attractiveness: ReadonlyMap<string, number>): string[] {
  const clicked: string[] = [];
  for (const id of order.slice(0, 10)) {
    if (rng.uniform() < (attractiveness.get(id) ?? 0)) {
      clicked.push(id);
      if (rng.uniform() < 0.6) break;
    }
  }
  return clicked;
}

interface ExperimentResult {
  clustered: boolean;
  sequential: boolean;
  naive: boolean;
}

function runExperiment(rng: Rng, experiment: number, units: number): ExperimentResult {
  let sums = EMPTY_PAIR_SUMS;
  let naiveWins = 0;
  let naiveDecided = 0;
  for (let u = 0; u < units; u += 1) {
    const unitId = `u${u}`;
    // Heavy users and light users: queries ~ 1 + Poisson(λ), λ exponential with mean 2.
    const lambda = -2 * Math.log(1 - rng.uniform());
    const queries = 1 + rng.poisson(lambda);
    const intents: { queryId: string; attractiveness: Map<string, number> }[] = [];
    let counts = { wins: 0, losses: 0, ties: 0 };
    for (let q = 0; q < queries; q += 1) {
      let intent = intents[Math.floor(rng.uniform() * intents.length)];
      if (intent === undefined || rng.uniform() < 0.4) {
        intent = { queryId: `q${q}`, attractiveness: new Map(DOCS.map((d) => [d, rng.uniform() ** 3])) };
        intents.push(intent);
      }
      const list = interleave({
        method: 'team-draft',
        rankings: RANKINGS,
        key: { seed: `aa-${experiment}`, phase: 1, unitId, queryId: intent.queryId },
      });
      const clicked = cascadeClicks(
        rng,
        list.results.map((r) => r.resultId),
        intent.attractiveness,
      );
      const credit = creditClicks(
        { ...list, recordedAt: 0 },
        clicked.map((resultId) => ({ resultId, userAction: 'click', receivedAt: 1 })),
      );
      const outcome = queryOutcomes(list.teams, credit.clicks)[0]!.outcome;
      counts = applyOutcome(counts, outcome);
      if (outcome !== 'tie') naiveDecided += 1;
      if (outcome === 'win') naiveWins += 1;
    }
    sums = addPairSums(sums, unitPairSums(counts));
  }
  return {
    clustered: interleavingPairTest(sums).significant,
    sequential: interleavingPairTest(sums, { method: 'sequential', tuningParameter: units }).significant,
    // What ignoring the units would do: a sign test over queries as if they were independent.
    naive: naiveDecided > 0 && signTestPValue(naiveWins, naiveDecided) < 0.05,
  };
}

describe('A/A interleaving simulation (alpha 0.05)', () => {
  it('clustered test: false-positive rate within [0.04, 0.06] over 2500 experiments of 100 units', () => {
    const rng = createRng(20240610);
    const experiments = 2500;
    let clustered = 0;
    let sequential = 0;
    let naive = 0;
    for (let e = 0; e < experiments; e += 1) {
      const r = runExperiment(rng, e, 100);
      if (r.clustered) clustered += 1;
      if (r.sequential) sequential += 1;
      if (r.naive) naive += 1;
    }
    const rate = (k: number) => (k / experiments).toFixed(4);
    console.log(
      `A/A interleaving over ${experiments} experiments: clustered FPR = ${rate(clustered)}, sequential (N* = 100 units) FPR = ${rate(sequential)}, naive per-query sign test FPR = ${rate(naive)}`,
    );
    expect(clustered / experiments).toBeGreaterThanOrEqual(0.04);
    expect(clustered / experiments).toBeLessThanOrEqual(0.06);
    expect(sequential / experiments).toBeLessThanOrEqual(0.05);
    // The correlation is real: treating queries as independent overstates significance.
    expect(naive / experiments).toBeGreaterThan(0.07);
  }, 120_000); // 2 500 seeded experiments: seconds alone, longer on a loaded CI machine
});
