/**
 * Deterministic hashing compatible bit for bit with the GrowthBook SDK
 * (`@growthbook/growthbook` `util.ts`, `hash`). Compatibility matters because
 * experiments may be exported to, or cross-checked against, GrowthBook: the
 * same (seed, unit) must land in the same bucket on both sides.
 */

export type HashVersion = 1 | 2;

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * 32-bit FNV-1a over UTF-16 code units (not UTF-8 bytes), because that is what
 * GrowthBook's `hashFnv32a` iterates with `charCodeAt`. Lone surrogates are
 * therefore hashed as-is rather than replaced. GrowthBook multiplies by the
 * prime with a sum of shifts; `Math.imul` is the same product modulo 2^32.
 */
export function fnv1a32(input: string): number {
  return fnvUpdate(FNV_OFFSET_BASIS, input) >>> 0;
}

/** Continues an FNV-1a state over more text: fnvUpdate(fnvUpdate(basis, a), b) is the hash of a + b, unconcatenated. */
function fnvUpdate(state: number, input: string): number {
  let h = state;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/** fnv1a32(String(n)) for an unsigned 32-bit n, over its decimal digits without building the string. */
export function fnv1a32OfDecimal(n: number): number {
  let h = FNV_OFFSET_BASIS;
  let power = 1;
  while (power * 10 <= n) power *= 10;
  for (; power >= 1; power /= 10) {
    const digit = Math.floor(n / power) % 10;
    h ^= 48 + digit;
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/**
 * Maps (seed, unit id) to a number in [0, 1).
 *
 * - Version 2 (the default for new experiments): hashes twice so that seeds
 *   differing only in a suffix do not yield correlated buckets; 10,000
 *   buckets, so weights resolve to 0.01 %.
 * - Version 1 (legacy, still used by GrowthBook for namespaces, see
 *   `inLayer`): `unitId + seed` order, 1,000 buckets, known to be biased
 *   across experiments whose seeds share a prefix.
 *
 * The seed is `configuration.seed` when the experiment defines one and the
 * experiment id otherwise; the caller chooses and passes it.
 */
export function hashUnit(seed: string, unitId: string, version: HashVersion): number {
  // The hot path of every assignment: the same arithmetic as GrowthBook's, without the
  // concatenated and stringified intermediates (growthbook-parity.test.ts holds it bit for bit).
  if (version === 2) {
    return (fnv1a32OfDecimal(fnvUpdate(fnvUpdate(FNV_OFFSET_BASIS, seed), unitId) >>> 0) % 10000) / 10000;
  }
  return ((fnvUpdate(fnvUpdate(FNV_OFFSET_BASIS, unitId), seed) >>> 0) % 1000) / 1000;
}
