/**
 * The simulated catalogue: LightGBM's lambdarank sample (test/fixtures/ltr, 201 queries, 3 005
 * documents graded 0–4) read with the ranker's LETOR reader. The grades are the hidden truth; the
 * estimators only ever see positions and clicks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseLetor } from '../../src/ranker/data/letor.js';
import { groupsFromSizes, type Dataset } from '../../src/ranker/data/dataset.js';
import { createRng, mulberry32, shuffleInPlace } from '../../src/random/index.js';

const SAMPLE = fileURLToPath(new URL('../../test/fixtures/ltr/', import.meta.url));

/** Attractiveness of grade g: ε− + (ε+ − ε−)(2^g − 1)/(2^4 − 1), ε+ = 1, ε− = 0.1 (0.10, 0.16, 0.28, 0.52, 1.00). */
export const EPS_MINUS = 0.1;
export const EPS_PLUS = 1;
export function attractiveness(grade: number): number {
  return EPS_MINUS + ((EPS_PLUS - EPS_MINUS) * (2 ** grade - 1)) / (2 ** 4 - 1);
}
/** DBN satisfaction after a click: (2^g − 1)/15, so a grade-0 click never satisfies and a grade-4 one always does. */
export function satisfaction(grade: number): number {
  return (2 ** grade - 1) / (2 ** 4 - 1);
}

export interface World {
  /** One per document (row of the sample). */
  grade: Float64Array;
  attract: Float64Array;
  satisfy: Float64Array;
  docIds: string[];
  /** Rows of query q: queries[q]. */
  queries: number[][];
  queryHashes: string[];
  /** Zipf popularity: probability that a search is for query q (sums to 1). */
  popularity: Float64Array;
  data: Dataset;
}

export function loadWorld(zipf = 1, seed = 7): World {
  const text = readFileSync(SAMPLE + 'rank.train', 'utf8');
  const sizes = readFileSync(SAMPLE + 'rank.train.query', 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
  // The sample keeps its query boundaries in the .query file, not in qid: columns.
  const parsed = parseLetor(text, { requireQid: false, missing: 'zero' });
  const data: Dataset = { ...parsed, groups: groupsFromSizes(sizes) };
  const n = data.numRows;
  const grade = Float64Array.from(data.labels);
  const queries: number[][] = sizes.map((_, q) => range(data.groups![q]!, data.groups![q + 1]!));
  // A head and a long tail: popularity ∝ 1/rank^zipf over a seeded order of the queries, so the
  // head is not simply the file's first queries.
  const order = shuffleInPlace(range(0, queries.length), mulberry32(seed));
  const popularity = new Float64Array(queries.length);
  order.forEach((q, r) => (popularity[q] = 1 / (r + 1) ** zipf));
  const total = popularity.reduce((a, b) => a + b, 0);
  for (let q = 0; q < popularity.length; q++) popularity[q]! /= total;
  return {
    grade,
    attract: grade.map(attractiveness),
    satisfy: grade.map(satisfaction),
    docIds: Array.from({ length: n }, (_, r) => `d${r}`),
    queries,
    queryHashes: queries.map((_, q) => `q${q}`),
    popularity,
    data,
  };
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** A full ranking per query (rows, best first). */
export type Policy = number[][];

/** Order each query's rows by descending score; ties by row so the order is deterministic. */
export function rankByScore(world: World, score: (row: number) => number): Policy {
  return world.queries.map((rows) => {
    const s = new Map(rows.map((r) => [r, score(r)]));
    return [...rows].sort((a, b) => s.get(b)! - s.get(a)! || a - b);
  });
}

/** Hidden relevance plus Gaussian noise of standard deviation `sd` (one fixed draw per document). */
export function noisyRelevance(world: World, sd: number, seed: number): Policy {
  const rng = createRng(seed);
  const noise = Float64Array.from(world.grade, () => rng.normal() * sd);
  // A tiny deterministic jitter breaks grade ties the same way for every noise level.
  const jitter = Float64Array.from(world.grade, (_, r) => mulberry32(r + 1)() * 1e-6);
  return rankByScore(world, (r) => world.grade[r]! + noise[r]! + jitter[r]!);
}

export interface Candidate {
  name: string;
  policy: Policy;
  /**
   * `logged`: a reranker of the documents the logging rankers show (their top 10s), the question
   * offline evaluation can answer; `all`: free to promote documents no user ever saw, whose clicks
   * no estimator can know (scored apart, to show what low coverage does).
   */
  scope: 'logged' | 'all';
}

/** Pearson correlation of feature column f with the grade over all rows. */
function featureCorrelation(world: World, f: number): number {
  const { data } = world;
  const F = data.numFeatures;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  const n = data.numRows;
  for (let r = 0; r < n; r++) {
    const x = data.features[r * F + f]!;
    const y = world.grade[r]!;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const cov = sxy / n - (sx / n) * (sy / n);
  const vx = sxx / n - (sx / n) ** 2;
  const vy = syy / n - (sy / n) ** 2;
  return vx > 0 && vy > 0 ? cov / Math.sqrt(vx * vy) : 0;
}

/** Rows of one policy moved: the first result of every query demoted to position `to` (1-based). */
function demoteFirst(policy: Policy, to: number): Policy {
  return policy.map((list) => {
    const copy = list.slice(1);
    copy.splice(Math.min(to - 1, copy.length), 0, list[0]!);
    return copy;
  });
}

/** The candidate's order over the documents shown by the logging rankers first, the never-shown after. */
function rerankLogged(policy: Policy, shown: readonly Set<number>[]): Policy {
  return policy.map((list, q) => [...list.filter((r) => shown[q]!.has(r)), ...list.filter((r) => !shown[q]!.has(r))]);
}

/**
 * The logging rankers and the candidates from good to bad. The engine ("production") and the A/B
 * treatment are both relevance plus noise (sd 1.0, different draws): imperfect, and different enough
 * that the same document appears at different positions (the natural interventions).
 */
export function buildRankers(world: World): { production: Policy; treatment: Policy; candidates: Candidate[] } {
  const production = noisyRelevance(world, 1.0, 101);
  const treatment = noisyRelevance(world, 1.0, 202);
  const relevance = noisyRelevance(world, 0, 1);
  const pool: Omit<Candidate, 'scope'>[] = [];
  pool.push({ name: 'true relevance', policy: relevance });
  [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5].forEach((sd, i) =>
    pool.push({ name: `relevance + noise sd ${sd}`, policy: noisyRelevance(world, sd, 300 + i) }),
  );
  pool.push({ name: 'production (engine)', policy: production });
  pool.push({ name: 'A/B treatment', policy: treatment });
  pool.push({ name: 'production, first result to 3rd', policy: demoteFirst(production, 3) });
  pool.push({ name: 'production, first result to 10th', policy: demoteFirst(production, 10) });
  const F = world.data.numFeatures;
  const corr = Array.from({ length: F }, (_, f) => ({ f, r: featureCorrelation(world, f) })).filter((c) => c.r !== 0);
  corr.sort((a, b) => b.r - a.r);
  // Single-feature scorers from the strongest to the most misleading feature of the sample.
  const picks = [corr[0]!, corr[10]!, corr[40]!, corr[Math.floor(corr.length / 2)]!, corr[corr.length - 1]!];
  for (const { f, r } of picks) {
    const name = `feature ${world.data.featureNames[f]} (r = ${r.toFixed(2)})`;
    pool.push({ name, policy: rankByScore(world, (row) => world.data.features[row * F + f]!) });
  }
  const random = world.queries.map((rows) => shuffleInPlace([...rows], mulberry32(999 + rows[0]!)));
  pool.push({ name: 'random order', policy: random });
  pool.push({ name: 'production reversed', policy: production.map((l) => [...l].reverse()) });
  pool.push({ name: 'relevance reversed', policy: relevance.map((l) => [...l].reverse()) });
  pool.push({ name: 'production top 10 reversed', policy: production.map((l) => [...l.slice(0, 10).reverse(), ...l.slice(10)]) });
  const shown = world.queries.map((_, q) => new Set([...production[q]!.slice(0, 10), ...treatment[q]!.slice(0, 10)]));
  const candidates: Candidate[] = pool.map((c) => ({ ...c, policy: rerankLogged(c.policy, shown), scope: 'logged' }));
  const free = ['true relevance', 'relevance + noise sd 0.5', 'random order', 'relevance reversed'];
  for (const c of pool.filter((p) => free.includes(p.name)))
    candidates.push({ name: `${c.name}, all documents`, policy: c.policy, scope: 'all' });
  return { production, treatment, candidates };
}
