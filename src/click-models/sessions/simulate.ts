import { mulberry32, randomInt, shuffleInPlace, type Random } from '../../random/index.js';
import type { SearchSession } from '../types.js';

/**
 * Click-log simulators with known parameters, for recovery tests and benchmarks.
 * Each session shows a fresh random permutation of the query's documents, so every
 * document appears at many ranks — the condition under which position bias and
 * relevance can be told apart.
 */
export type GeneratingModel = 'pbm' | 'cascade' | 'dbn';

export interface SimulationOptions {
  readonly model: GeneratingModel;
  readonly seed: number;
  readonly queries: number;
  readonly docsPerQuery: number;
  readonly sessions: number;
  /** Results shown per session. Default 10. */
  readonly depth?: number;
  /** PBM γ_r; default a typical decaying curve with γ_1 = 1. */
  readonly examination?: readonly number[];
  /** DBN λ; default 0.9. */
  readonly continuation?: number;
  /** Query popularity ∝ 1 / rank^exponent; 0 (default) = uniform. ~1 gives a long tail. */
  readonly zipfExponent?: number;
  /** Attractiveness and satisfaction are drawn uniformly from this range. */
  readonly parameterRange?: readonly [number, number];
}

export interface PairTruth {
  readonly attractiveness: number;
  readonly satisfaction: number;
}

export interface SimulatedLog {
  readonly sessions: SearchSession[];
  /** Keyed by `pairKey(queryHash, resultId)`. */
  readonly truth: ReadonlyMap<string, PairTruth>;
  readonly examination: readonly number[];
  readonly continuation: number;
}

export const DEFAULT_SIMULATED_EXAMINATION = [1, 0.85, 0.72, 0.6, 0.5, 0.42, 0.35, 0.3, 0.26, 0.22] as const;

export function pairKey(queryHash: string, resultId: string): string {
  return `${queryHash}\u0000${resultId}`;
}

function clicksFor(
  options: SimulationOptions,
  random: Random,
  params: readonly PairTruth[],
  examination: readonly number[],
  continuation: number,
): boolean[] {
  const clicks = new Array<boolean>(params.length).fill(false);
  if (options.model === 'pbm') {
    for (let r = 0; r < params.length; r += 1) {
      clicks[r] = random() < (examination[r] ?? 0) && random() < (params[r] as PairTruth).attractiveness;
    }
    return clicks;
  }
  for (let r = 0; r < params.length; r += 1) {
    const { attractiveness, satisfaction } = params[r] as PairTruth;
    if (random() < attractiveness) {
      clicks[r] = true;
      if (options.model === 'cascade' || random() < satisfaction) break;
    }
    if (options.model === 'dbn' && random() >= continuation) break;
  }
  return clicks;
}

export function simulateClickLog(options: SimulationOptions): SimulatedLog {
  const random = mulberry32(options.seed);
  const depth = options.depth ?? 10;
  const examination = options.examination ?? DEFAULT_SIMULATED_EXAMINATION;
  const continuation = options.continuation ?? 0.9;
  const [low, high] = options.parameterRange ?? [0.05, 0.95];
  const draw = (): number => low + (high - low) * random();

  const truth = new Map<string, PairTruth>();
  const catalogue: { queryHash: string; docs: string[]; params: PairTruth[] }[] = [];
  for (let q = 0; q < options.queries; q += 1) {
    const queryHash = `q${q}`;
    const docs: string[] = [];
    const params: PairTruth[] = [];
    for (let d = 0; d < options.docsPerQuery; d += 1) {
      const doc = `${queryHash}-d${d}`;
      const pair = { attractiveness: draw(), satisfaction: options.model === 'cascade' ? 1 : draw() };
      docs.push(doc);
      params.push(pair);
      truth.set(pairKey(queryHash, doc), pair);
    }
    catalogue.push({ queryHash, docs, params });
  }

  // Cumulative popularity for inverse-CDF sampling of queries.
  const exponent = options.zipfExponent ?? 0;
  const cumulative = catalogue.map((_, q) => (q + 1) ** -exponent);
  for (let q = 1; q < cumulative.length; q += 1) cumulative[q] = (cumulative[q] as number) + (cumulative[q - 1] as number);
  const totalWeight = cumulative[cumulative.length - 1] ?? 0;
  const pickQuery = (): number => {
    if (exponent === 0) return randomInt(random, catalogue.length);
    const u = random() * totalWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  const sessions: SearchSession[] = [];
  const order = Array.from({ length: options.docsPerQuery }, (_, i) => i);
  for (let s = 0; s < options.sessions; s += 1) {
    const query = catalogue[pickQuery()];
    if (query === undefined) break;
    shuffleInPlace(order, random);
    const shown = order.slice(0, Math.min(depth, order.length));
    const params = shown.map((i) => query.params[i] as PairTruth);
    sessions.push({
      queryHash: query.queryHash,
      resultIds: shown.map((i) => query.docs[i] as string),
      clicks: clicksFor(options, random, params, examination, continuation),
      timestamp: s,
    });
  }
  return { sessions, truth, examination, continuation };
}
