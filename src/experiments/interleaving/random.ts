import { createHash } from 'node:crypto';

/** What makes an interleaved list reproducible: the same key and rankings give the same list and teams. */
export interface InterleavingKey {
  /** The experiment's seed (configuration.seed, or its id), as for assignment. */
  readonly seed: string;
  /** The experiment's phase: a new phase draws fresh coins. */
  readonly phase: number;
  readonly unitId: string;
  readonly queryId: string;
}

/**
 * The coin flips of one query: a Small Fast Counting generator (sfc32, Chris Doty-Humphrey,
 * PractRand; public domain) whose 128-bit state is the first 16 bytes of
 * SHA-256("searchloop/interleaving/v1", seed, phase, unitId, queryId).
 *
 * Why SHA-256 rather than the GrowthBook FNV-1a hash used for bucketing: the key is four
 * free-form strings, and FNV over a concatenation both collides on shifted boundaries
 * ("ab"+"c" vs "a"+"bc") and mixes poorly for ids that differ in one character (q1, q2, …), while
 * the coins of consecutive queries must be independent. JSON encoding of the tuple makes the input
 * unambiguous, the domain tag keeps the stream apart from any other use of the same ids, and SHA-256
 * gives 128 well-mixed bits of state instead of FNV's 32. Cost: about a microsecond per query.
 */
export function interleavingRandom(key: InterleavingKey): () => number {
  const digest = createHash('sha256')
    .update(JSON.stringify(['searchloop/interleaving/v1', key.seed, key.phase, key.unitId, key.queryId]))
    .digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
