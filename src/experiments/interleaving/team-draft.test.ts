import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signTestPValue, srmCheck } from '../../stats/index.js';
import { interleavingRandom, type InterleavingKey } from './random.js';
import { balanceCounts, interleave, teamDraft } from './team-draft.js';
import type { InterleavingMethod, Ranking } from './types.js';

const key = (queryId: string, unitId = 'unit-1'): InterleavingKey => ({ seed: 'exp-seed', phase: 1, unitId, queryId });

/** k rankings that each order the same n results differently (the setting of a /rank call). */
const permutations = (minTeams: number, maxTeams: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: minTeams, max: maxTeams }))
    .chain(([n, k]) =>
      fc.array(
        fc.shuffledSubarray(
          Array.from({ length: n }, (_, i) => `doc-${i}`),
          { minLength: n, maxLength: n },
        ),
        { minLength: k, maxLength: k },
      ),
    )
    .map((lists): Ranking[] => lists.map((resultIds, t) => ({ team: `v${t}`, resultIds })));

/** Rankings of different lengths drawing on overlapping pools (external rankers). */
const unequalRankings = (minTeams: number, maxTeams: number) =>
  fc
    .array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), { minLength: minTeams, maxLength: maxTeams })
    .map((lists): Ranking[] => lists.map((ids, t) => ({ team: `v${t}`, resultIds: ids.map((i) => `r${i}`) })));

const queryKey = fc.record({
  seed: fc.string({ maxLength: 12 }),
  phase: fc.integer({ min: 1, max: 5 }),
  unitId: fc.string({ minLength: 1, maxLength: 12 }),
  queryId: fc.string({ minLength: 1, maxLength: 12 }),
});

function methodFor(rankings: readonly Ranking[]): InterleavingMethod {
  return rankings.length === 2 ? 'team-draft' : 'team-draft-multileave';
}

/** Radlinski et al. (2008), Fig. 4, written independently: the loser of the count, or the coin, picks. */
function radlinskiReference(a: readonly string[], b: readonly string[], random: () => number): { id: string; team: 0 | 1 }[] {
  const out: { id: string; team: 0 | 1 }[] = [];
  const inList = new Set<string>();
  let sizeA = 0;
  let sizeB = 0;
  const next = (list: readonly string[]) => list.find((id) => !inList.has(id));
  for (;;) {
    const nextA = next(a);
    const nextB = next(b);
    if (nextA === undefined && nextB === undefined) break;
    let pickA: boolean;
    if (nextA === undefined) pickA = false;
    else if (nextB === undefined) pickA = true;
    else pickA = sizeA < sizeB || (sizeA === sizeB && Math.floor(random() * 2) === 0);
    const id = (pickA ? nextA : nextB) as string;
    inList.add(id);
    out.push({ id, team: pickA ? 0 : 1 });
    if (pickA) sizeA += 1;
    else sizeB += 1;
  }
  return out;
}

describe('team-draft properties (fast-check)', () => {
  it('is deterministic for (seed, phase, unitId, queryId) and the rankings', () => {
    fc.assert(
      fc.property(unequalRankings(2, 8), queryKey, (rankings, k) => {
        const method = methodFor(rankings);
        expect(interleave({ method, rankings, key: k })).toEqual(interleave({ method, rankings, key: { ...k } }));
      }),
    );
  });

  it('lists every result of every ranking exactly once, ranks 1…n', () => {
    fc.assert(
      fc.property(unequalRankings(2, 8), queryKey, (rankings, k) => {
        const { results } = interleave({ method: methodFor(rankings), rankings, key: k });
        const ids = results.map((r) => r.resultId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(ids)).toEqual(new Set(rankings.flatMap((r) => r.resultIds)));
        expect(results.map((r) => r.rank)).toEqual(ids.map((_, i) => i + 1));
      }),
    );
  });

  it("keeps, within each team, the relative order of that team's ranker", () => {
    fc.assert(
      fc.property(unequalRankings(2, 8), queryKey, (rankings, k) => {
        const { results } = interleave({ method: methodFor(rankings), rankings, key: k });
        for (const ranking of rankings) {
          const picked = results.filter((r) => r.team === ranking.team).map((r) => ranking.resultIds.indexOf(r.resultId));
          expect(picked.every((p) => p >= 0)).toBe(true);
          expect(picked).toEqual([...picked].sort((x, y) => x - y));
        }
      }),
    );
  });

  it('gives the two teams counts within one in the top depth (team draft)', () => {
    fc.assert(
      fc.property(permutations(2, 2), queryKey, fc.integer({ min: 1, max: 30 }), (rankings, k, depth) => {
        const list = interleave({ method: 'team-draft', rankings, key: k, depth });
        const { positions } = balanceCounts(list);
        expect(Math.abs((positions[0] ?? 0) - (positions[1] ?? 0))).toBeLessThanOrEqual(1);
        expect(positions[0]! + positions[1]!).toBe(Math.min(depth, rankings[0]!.resultIds.length));
      }),
    );
  });

  it('gives any two of 3–8 teams counts within one in the top depth (multileave)', () => {
    fc.assert(
      fc.property(permutations(3, 8), queryKey, fc.integer({ min: 1, max: 30 }), (rankings, k, depth) => {
        const { positions } = balanceCounts(interleave({ method: 'team-draft-multileave', rankings, key: k, depth }));
        expect(Math.max(...positions) - Math.min(...positions)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is exactly Radlinski et al.’s algorithm for two rankers, given the same coins', () => {
    fc.assert(
      fc.property(unequalRankings(2, 2), fc.integer(), (rankings, seed) => {
        const [a, b] = rankings as [Ranking, Ranking];
        const ours = teamDraft(rankings, interleavingRandom(key(String(seed))));
        const reference = radlinskiReference(a.resultIds, b.resultIds, interleavingRandom(key(String(seed))));
        expect(ours.map((r) => [r.resultId, r.team])).toEqual(reference.map((r) => [r.id, r.team === 0 ? a.team : b.team]));
      }),
    );
  });
});

describe('unequal rankings', () => {
  it('lets the longer ranking fill positions once the shorter one is used up', () => {
    const list = interleave({
      method: 'team-draft',
      rankings: [
        { team: 'short', resultIds: ['a', 'b'] },
        { team: 'long', resultIds: ['c', 'd', 'e', 'f', 'g', 'h'] },
      ],
      key: key('q'),
      depth: 6,
    });
    expect(list.results.filter((r) => r.team === 'short').map((r) => r.resultId)).toEqual(['a', 'b']);
    expect(balanceCounts(list).positions).toEqual([2, 4]);
    expect(list.results.slice(4).every((r) => r.team === 'long')).toBe(true);
  });

  it('credits a result both rankers list to whichever team took it first', () => {
    const list = interleave({
      method: 'team-draft',
      rankings: [
        { team: 'A', resultIds: ['x', 'y'] },
        { team: 'B', resultIds: ['x', 'z'] },
      ],
      key: key('q2'),
    });
    expect(list.results[0]!.resultId).toBe('x');
    expect(list.results.map((r) => r.resultId)).toHaveLength(3);
  });

  it('refuses invalid input instead of guessing', () => {
    const rankings = [
      { team: 'A', resultIds: ['x', 'x'] },
      { team: 'B', resultIds: ['y'] },
    ];
    expect(() => interleave({ method: 'team-draft', rankings, key: key('q') })).toThrow(/twice/);
    expect(() => interleave({ method: 'team-draft-multileave', rankings: rankings.slice(1), key: key('q') })).toThrow(/3 to 8/);
  });
});

describe('coin flips', () => {
  const QUERIES = 100_000;
  const rankings = [
    { team: 'A', resultIds: ['1', '2', '3', '4'] },
    { team: 'B', resultIds: ['4', '3', '2', '1'] },
  ];

  it(`are balanced: the team picking first over ${QUERIES} queries passes a binomial test (p > 0.001)`, () => {
    let firstA = 0;
    let sameTwice = 0;
    for (let q = 0; q < QUERIES; q += 1) {
      const { results } = interleave({ method: 'team-draft', rankings, key: key(`q${q}`, `u${q % 997}`) });
      if (results[0]!.team === 'A') firstA += 1;
      // Round two's coin (who takes rank 3) must not follow round one's.
      if (results[0]!.team === results[2]!.team) sameTwice += 1;
    }
    const p = signTestPValue(firstA, QUERIES);
    const pRounds = signTestPValue(sameTwice, QUERIES);
    console.log(
      `first pick A: ${firstA}/${QUERIES} (p = ${p.toFixed(3)}); same first picker in rounds 1 and 2: ${sameTwice} (p = ${pRounds.toFixed(3)})`,
    );
    expect(p).toBeGreaterThan(0.001);
    expect(pRounds).toBeGreaterThan(0.001);
  });

  it('give every one of five multileaved teams its share of first picks (χ², p > 0.001)', () => {
    const teams = Array.from({ length: 5 }, (_, t) => ({ team: `t${t}`, resultIds: ['a', 'b', 'c', 'd', 'e'] }));
    const firsts = [0, 0, 0, 0, 0];
    for (let q = 0; q < 50_000; q += 1) {
      const list = interleave({ method: 'team-draft-multileave', rankings: teams, key: key(`q${q}`) });
      const f = balanceCounts(list).firstPickTeam!;
      firsts[f] = firsts[f]! + 1;
    }
    const check = srmCheck(firsts, [1, 1, 1, 1, 1]);
    expect(check.pValue!).toBeGreaterThan(0.001);
  });

  it('change with the seed, the phase, the unit and the query', () => {
    const firstPicks = (k: InterleavingKey) => {
      const picks: string[] = [];
      for (let i = 0; i < 64; i += 1)
        picks.push(interleave({ method: 'team-draft', rankings, key: { ...k, queryId: `${k.queryId}-${i}` } }).results[0]!.team);
      return picks.join('');
    };
    const base = firstPicks(key('q'));
    expect(firstPicks({ ...key('q'), seed: 'other' })).not.toBe(base);
    expect(firstPicks({ ...key('q'), phase: 2 })).not.toBe(base);
    expect(firstPicks(key('q', 'unit-2'))).not.toBe(base);
    expect(firstPicks(key('r'))).not.toBe(base);
  });
});
