/**
 * The hot loops of training: add rows' gradients into a histogram over every dense column
 * (histogram.ts builds the row-major slot matrix, padded to a multiple of 4 cells per row;
 * padding points at a spare slot that is never read). Each slot receives its rows' values in
 * row order whatever the unrolling, so the sums are exactly those of the plain loop.
 */

/**
 * Uint16 slots read as Uint32 words, two slots each, 4 cells per step (the loop's own
 * overhead and bounds checks per cell cost as much as the adds: −30–40 % per row on
 * 100 000 × 50), and two rows at a time, their cells interleaved, so the cache misses of two
 * scattered rows overlap (deep leaves read rows far apart; −15–25 % there in a micro-benchmark).
 * Typed arrays use the platform's byte order; Node's platforms are all little-endian.
 */
export function addDenseRowsNarrow(
  hist: Float64Array,
  rows: Int32Array,
  begin: number,
  end: number,
  gh: Float64Array,
  dense32: Uint32Array,
  words: number,
): void {
  let i = begin;
  for (; i + 1 < end; i += 2) {
    const ra = rows[i]!;
    const rb = rows[i + 1]!;
    const ga = gh[2 * ra]!;
    const ha = gh[2 * ra + 1]!;
    const gb = gh[2 * rb]!;
    const hb = gh[2 * rb + 1]!;
    for (let ea = ra * words, eb = rb * words, e1 = ea + words; ea < e1; ea += 2, eb += 2) {
      const wa0 = dense32[ea]!;
      const wa1 = dense32[ea + 1]!;
      const wb0 = dense32[eb]!;
      const wb1 = dense32[eb + 1]!;
      // Row a's cell before row b's in the same column: each slot still sees rows in order.
      let k = wa0 & 0xffff;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb0 & 0xffff;
      hist[k]! += gb;
      hist[k + 1]! += hb;
      k = wa0 >>> 16;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb0 >>> 16;
      hist[k]! += gb;
      hist[k + 1]! += hb;
      k = wa1 & 0xffff;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb1 & 0xffff;
      hist[k]! += gb;
      hist[k + 1]! += hb;
      k = wa1 >>> 16;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb1 >>> 16;
      hist[k]! += gb;
      hist[k + 1]! += hb;
    }
  }
  if (i < end) {
    const r = rows[i]!;
    const g = gh[2 * r]!;
    const h = gh[2 * r + 1]!;
    for (let e = r * words, e1 = e + words; e < e1; e++) {
      const w = dense32[e]!;
      const k0 = w & 0xffff;
      const k1 = w >>> 16;
      hist[k0]! += g;
      hist[k0 + 1]! += h;
      hist[k1]! += g;
      hist[k1 + 1]! += h;
    }
  }
}

/** Int32 slots (histograms of 65 536 doubles or more), 4 cells per step. */
export function addDenseRowsWide(
  hist: Float64Array,
  rows: Int32Array,
  begin: number,
  end: number,
  gh: Float64Array,
  dense: Int32Array,
  stride: number,
): void {
  for (let i = begin; i < end; i++) {
    const r = rows[i]!;
    const g = gh[2 * r]!;
    const h = gh[2 * r + 1]!;
    for (let e = r * stride, e1 = e + stride; e < e1; e += 4) {
      const k0 = dense[e]!;
      const k1 = dense[e + 1]!;
      const k2 = dense[e + 2]!;
      const k3 = dense[e + 3]!;
      hist[k0]! += g;
      hist[k0 + 1]! += h;
      hist[k1]! += g;
      hist[k1 + 1]! += h;
      hist[k2]! += g;
      hist[k2 + 1]! += h;
      hist[k3]! += g;
      hist[k3 + 1]! += h;
    }
  }
}
