import { describe, expect, it } from 'vitest';
import { createRng } from '../../random/index.js';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import {
  EMPTY_PAIR_SUMS,
  addPairSums,
  compareInterleavedPairs,
  interleavingPairTest,
  interleavingUnitsForPower,
  pairSumsFromUnits,
  preferenceMatrix,
  rankerOrder,
  swapPairSums,
  teamBalanceCheck,
  unitPairSums,
  type InterleavingPairSums,
  type InterleavingMethodName,
  type UnitOutcomes,
} from './interleaving.js';

interface PairCase {
  kind: 'pair';
  name: string;
  alpha: number;
  method: InterleavingMethodName;
  tuningParameter: number;
  sums: InterleavingPairSums;
  expected: {
    preference: number | null;
    share: number | null;
    test: string | null;
    pValue: number | null;
    statistic?: number | null;
    shareCi: [number, number] | null;
    ci: [number, number] | null;
    significant: boolean;
  };
}
interface FamilyCase {
  kind: 'family';
  name: string;
  pairs: { variantId: string; opponentVariantId: string; sums: InterleavingPairSums; pValue: number }[];
  adjusted: number[];
}

const fixture = loadFixture<PairCase | FamilyCase>('interleaving');

describe('interleaving pair test against scipy (raw per-unit data, root finding)', () => {
  const pairs = fixture.filter((c): c is PairCase => c.kind === 'pair');
  it.each(pairs.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = interleavingPairTest(c.sums, { alpha: c.alpha, method: c.method, tuningParameter: c.tuningParameter });
    const e = c.expected;
    expect(r.test).toBe(e.test);
    expectClose(r.preference, e.preference, 'preference', 1e-12);
    expectClose(r.share, e.share, 'share', 1e-12);
    expectClose(r.pValue, e.pValue, 'pValue', 1e-9, 1e-300);
    if (e.statistic !== undefined && r.test !== null) expectClose(r.statistic, e.statistic, 'statistic', 1e-10);
    // Exact for the sign test; the clustered bounds inherit the ~1e-9 relative error of
    // @stdlib's t quantile at small df (e.g. df = 7), so they are held to 1e-8.
    const tolerance = r.test === 'sign-test-exact' ? 1e-9 : 1e-8;
    expectClosePair(r.shareCi, e.shareCi, 'shareCi', tolerance, 1e-14);
    expectClosePair(r.ci, e.ci, 'ci', tolerance, 1e-14);
    expect(r.significant).toBe(e.significant);
    expect(r.queries).toBe(c.sums.wins + c.sums.losses + c.sums.ties);
  });

  it('declares significance exactly when the share interval excludes ½, for every method and level', () => {
    for (const c of pairs) {
      for (const method of ['fixed', 'sequential'] as const) {
        for (const alpha of [0.001, 0.01, 0.05, 0.2]) {
          const r = interleavingPairTest(c.sums, { alpha, method });
          if (r.shareCi === null) {
            expect(r.significant).toBe(false);
            continue;
          }
          const excludes = r.shareCi[0] > 0.5 || r.shareCi[1] < 0.5;
          expect(r.significant, `${c.name} ${method} ${alpha}`).toBe(excludes);
          expect(r.ci !== null && (r.ci[0] > 0 || r.ci[1] < 0)).toBe(excludes);
        }
      }
    }
  });
});

describe('pair sums', () => {
  const units: UnitOutcomes[] = [
    { wins: 2, losses: 1, ties: 0 },
    { wins: 0, losses: 0, ties: 3 },
    { wins: 0, losses: 2, ties: 1 },
  ];

  it('are additive, so a store can apply the change of one unit', () => {
    const all = pairSumsFromUnits(units);
    expect(all).toEqual({ units: 3, decidedUnits: 2, wins: 2, losses: 3, ties: 4, sumWins2: 4, sumLosses2: 5, sumWinsLosses: 2 });
    const before = unitPairSums({ wins: 0, losses: 2, ties: 1 });
    const after = unitPairSums({ wins: 1, losses: 2, ties: 0 });
    const updated = addPairSums(all, addPairSums(after, before, -1));
    expect(updated).toEqual(pairSumsFromUnits([units[0]!, units[1]!, { wins: 1, losses: 2, ties: 0 }]));
  });

  it('swap sides symmetrically: share, interval and p mirror', () => {
    const s = pairSumsFromUnits(Array.from({ length: 30 }, (_, i) => ({ wins: (i * 7) % 4, losses: (i * 5) % 3, ties: i % 2 })));
    const a = interleavingPairTest(s);
    const b = interleavingPairTest(swapPairSums(s));
    expectClose(b.share, 1 - a.share!, 'share');
    expectClose(b.pValue, a.pValue, 'p');
    expectClosePair(b.shareCi, [1 - a.shareCi![1], 1 - a.shareCi![0]], 'ci');
    expectClose(b.preference, -a.preference!, 'preference');
  });

  it('give reasons instead of NaN', () => {
    expect(interleavingPairTest(EMPTY_PAIR_SUMS).reason).toBe('ZERO_DENOMINATOR');
    expect(interleavingPairTest({ ...EMPTY_PAIR_SUMS, wins: Number.NaN }).reason).toBe('INVALID_INPUT');
    expect(interleavingPairTest(pairSumsFromUnits([{ wins: 3, losses: 1, ties: 0 }])).reason).toBe('TOO_FEW_UNITS');
    expect(interleavingPairTest(pairSumsFromUnits(units), { alpha: 2 }).reason).toBe('INVALID_INPUT');
  });
});

describe('a family of pairs (multileaving)', () => {
  const families = fixture.filter((c): c is FamilyCase => c.kind === 'family');
  it.each(families.map((c) => [c.name, c] as const))('Holm-adjusts like statsmodels: %s', (_name, c) => {
    const out = compareInterleavedPairs(c.pairs);
    out.forEach((r, i) => {
      expectClose(r.pValue, c.pairs[i]!.pValue, `p ${i}`, 1e-9, 1e-300);
      expectClose(r.adjustedPValue, c.adjusted[i]!, `adjusted ${i}`, 1e-9, 1e-300);
      expect(r.significant).toBe(c.adjusted[i]! < 0.05);
      if (r.significant) expect(r.winner).toBe(r.share! > 0.5 ? r.variantId : r.opponentVariantId);
      else expect(r.winner).toBeNull();
    });
  });

  it('orders rankers by Copeland score on significant outcomes, then mean preference', () => {
    const strong = pairSumsFromUnits(Array.from({ length: 200 }, () => ({ wins: 2, losses: 1, ties: 1 })));
    const even = pairSumsFromUnits(Array.from({ length: 200 }, (_, i) => ({ wins: i % 2, losses: (i + 1) % 2, ties: 1 })));
    const slight = pairSumsFromUnits(Array.from({ length: 24 }, (_, i) => ({ wins: i % 3 === 0 ? 0 : 1, losses: i % 2, ties: 0 })));
    // a beats b and c; b and c are level; d only slightly ahead of c, never significantly.
    const comparisons = compareInterleavedPairs([
      { variantId: 'a', opponentVariantId: 'b', sums: strong },
      { variantId: 'a', opponentVariantId: 'c', sums: strong },
      { variantId: 'a', opponentVariantId: 'd', sums: strong },
      { variantId: 'b', opponentVariantId: 'c', sums: even },
      { variantId: 'd', opponentVariantId: 'c', sums: slight },
      { variantId: 'b', opponentVariantId: 'd', sums: even },
    ]);
    const order = rankerOrder(['d', 'c', 'b', 'a'], comparisons);
    expect(order.map((o) => o.variantId)).toEqual(['a', 'd', 'b', 'c']);
    expect(order[0]).toMatchObject({ rank: 1, copeland: 3, significantWins: 3, significantLosses: 0 });
    expect(order.slice(1).every((o) => o.copeland === -1)).toBe(true);
    expect(comparisons[4]!.significant).toBe(false);
    expect(comparisons[4]!.share!).toBeGreaterThan(0.5);
    const matrix = preferenceMatrix(['a', 'b'], comparisons);
    expect(matrix[0]![1]).toBeCloseTo(comparisons[0]!.preference!, 12);
    expect(matrix[1]![0]).toBeCloseTo(-comparisons[0]!.preference!, 12);
    expect(matrix[0]![0]).toBeNull();
  });

  it('gives equal standing the same rank', () => {
    const even = pairSumsFromUnits(Array.from({ length: 50 }, () => ({ wins: 1, losses: 1, ties: 0 })));
    const order = rankerOrder(['x', 'y'], compareInterleavedPairs([{ variantId: 'x', opponentVariantId: 'y', sums: even }]));
    expect(order.map((o) => o.rank)).toEqual([1, 1]);
  });
});

describe('team balance', () => {
  it('passes balanced counts and fails a lopsided split like the SRM check (p < 0.001)', () => {
    expect(teamBalanceCheck([5000, 5000], [1010, 990]).passed).toBe(true);
    const positions = teamBalanceCheck([5400, 4600], [1000, 1000]);
    expect(positions.passed).toBe(false);
    expect(positions.positions.pValue!).toBeLessThan(0.001);
    const coins = teamBalanceCheck([5000, 5000], [1150, 850]);
    expect(coins.passed).toBe(false);
    expect(teamBalanceCheck([3, 1], [3, 1]).passed).toBe(true);
    expect(teamBalanceCheck([30, 10, 20], [3, 3, 4]).positionShares).toEqual([0.5, 1 / 6, 1 / 3]);
  });
});

describe('planning: units for 80 % power', () => {
  it('reaches the planned power in simulation (units with 3 queries: win 0.36, loss 0.30, tie 0.34)', () => {
    // Exact per-unit mean and variance of y = w − ½(w + l) = (w − l)/2 for 3 independent queries.
    const [pw, pl] = [0.36, 0.3];
    const meanQuery = (pw - pl) / 2;
    const varQuery = (pw + pl) / 4 - meanQuery ** 2;
    const units = Math.ceil(interleavingUnitsForPower(3 * meanQuery, 3 * varQuery)!);
    const rng = createRng(42);
    const experiments = 2000;
    let significant = 0;
    for (let e = 0; e < experiments; e += 1) {
      let sums = EMPTY_PAIR_SUMS;
      for (let u = 0; u < units; u += 1) {
        const counts = { wins: 0, losses: 0, ties: 0 };
        for (let q = 0; q < 3; q += 1) {
          const x = rng.uniform();
          if (x < pw) counts.wins += 1;
          else if (x < pw + pl) counts.losses += 1;
          else counts.ties += 1;
        }
        sums = addPairSums(sums, unitPairSums(counts));
      }
      if (interleavingPairTest(sums).significant) significant += 1;
    }
    console.log(`planned ${units} units for 80 % power; reached ${(significant / experiments).toFixed(3)} over ${experiments} experiments`);
    expect(significant / experiments).toBeGreaterThan(0.77);
    expect(significant / experiments).toBeLessThan(0.83);
    expect(interleavingUnitsForPower(0, 1)).toBeNull();
    expect(interleavingUnitsForPower(0.1, 1, 0.05, 0.9)!).toBeGreaterThan(interleavingUnitsForPower(0.1, 1)!);
  });
});
