import { createRng, type SeededRng } from '../../random/index.js';
import type { ClickSession } from './click-log.js';

/**
 * Seeded semi-synthetic click logs for this folder's tests: queries whose documents have a known
 * grade and three features, a logging order, and position-based-model users (click = examined at
 * the position with probability e_k, then attracted with probability γ(grade)).
 */
export interface SimDoc {
  key: string;
  grade: number;
  /** f0, f1: two independent noisy views of the grade; f2: what the logger ranks by (a weaker view). */
  features: number[];
}

export interface SimQuery {
  key: string;
  docs: SimDoc[];
}

export const SIM_FEATURES = ['f0', 'f1', 'f2'];

export function simulateCorpus(seed: number, numQueries: number, docsPerQuery: number, maxGrade = 4): SimQuery[] {
  const rng = createRng(seed);
  return Array.from({ length: numQueries }, (_, q) => ({
    key: `q${q}`,
    docs: Array.from({ length: docsPerQuery }, (_, d) => {
      // Skewed grades: most documents are irrelevant, as in LETOR sets.
      const grade = Math.min(maxGrade, Math.floor(rng.uniform() ** 2 * (maxGrade + 1)));
      return {
        key: `q${q}d${d}`,
        grade,
        features: [grade + rng.normal(), grade + rng.normal(), 0.5 * grade + 1.5 * rng.normal()],
      };
    }),
  }));
}

/** Attraction γ = ε− + (1 − ε−)·(2^g − 1)/(2^max − 1) (ε+ = 1 at the top grade). */
export function attraction(grade: number, maxGrade: number, epsMinus: number): number {
  return epsMinus + ((1 - epsMinus) * (2 ** grade - 1)) / (2 ** maxGrade - 1);
}

export interface PbmOptions {
  sessions: number;
  /** e_k, index 0 = position 1; the list shown is this long. */
  examination: readonly number[];
  maxGrade?: number;
  epsMinus?: number;
  /**
   * 'logger': each query's documents by f2 descending, then a random adjacent swap per session
   * (a few distinct lists per query); 'rotation': a fixed random order rotated by a uniform offset
   * per session, so every document sits at every position equally often.
   */
  order: 'logger' | 'rotation';
  seed: number;
}

/** Queries drawn uniformly per session. */
export function* simulatePbmSessions(corpus: SimQuery[], opts: PbmOptions): Generator<ClickSession> {
  const rng = createRng(opts.seed);
  const depth = opts.examination.length;
  const maxGrade = opts.maxGrade ?? 4;
  const eps = opts.epsMinus ?? 0;
  const base = corpus.map((q) => baseOrder(q, opts.order, rng));
  for (let s = 0; s < opts.sessions; s++) {
    const qi = Math.floor(rng.uniform() * corpus.length);
    const q = corpus[qi]!;
    const order = shown(base[qi]!, opts.order, depth, rng);
    const clicks = order.map((d, i) => rng.uniform() < opts.examination[i]! && rng.uniform() < attraction(q.docs[d]!.grade, maxGrade, eps));
    yield { queryKey: q.key, docKeys: order.map((d) => q.docs[d]!.key), clicks };
  }
}

function baseOrder(q: SimQuery, order: PbmOptions['order'], rng: SeededRng): number[] {
  const idx = q.docs.map((_, i) => i);
  if (order === 'logger') return idx.sort((a, b) => q.docs[b]!.features[2]! - q.docs[a]!.features[2]!);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rng.uniform() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx;
}

function shown(base: number[], order: PbmOptions['order'], depth: number, rng: SeededRng): number[] {
  if (order === 'rotation') {
    const off = Math.floor(rng.uniform() * base.length);
    return Array.from({ length: Math.min(depth, base.length) }, (_, i) => base[(i + off) % base.length]!);
  }
  const list = base.slice(0, Math.min(depth, base.length));
  const i = Math.floor(rng.uniform() * (list.length - 1));
  [list[i], list[i + 1]] = [list[i + 1]!, list[i]!];
  return list;
}

/** Feature lookup for buildClickLog. */
export function corpusFeatures(corpus: SimQuery[]): (queryKey: string, docKey: string) => number[] {
  const byKey = new Map<string, number[]>();
  for (const q of corpus) for (const d of q.docs) byKey.set(`${q.key}\u0000${d.key}`, d.features);
  return (queryKey, docKey) => byKey.get(`${queryKey}\u0000${docKey}`)!;
}
