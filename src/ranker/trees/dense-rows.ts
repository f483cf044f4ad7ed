/**
 * The hot loops of training: add rows' gradients into a histogram over every dense column
 * (histogram.ts builds the row-major slot matrix, padded to a multiple of 4 cells per row;
 * padding points at a spare slot that is never read). Each slot receives its rows' values in
 * row order whatever the unrolling, so the sums are exactly those of the plain loop.
 */

/**
 * Uint16 slots read as Uint32 words, two slots each (the loop's own overhead and bounds
 * checks per cell cost as much as the adds: −30–40 % per row on 100 000 × 50), eight rows at a
 * time with their cells interleaved, so the cache misses of eight scattered rows overlap (a
 * deep leaf reads rows far apart, 2–3× the cost of a root row; interleaving 2 rows, then 4,
 * then 8 took 5–10 % each off training on 100 000 × 50). A row's cell comes before the next
 * row's in the same column, so each slot still sums rows in order.
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
  for (; i + 7 < end; i += 8) {
    const ra = rows[i + 0]!;
    const rb = rows[i + 1]!;
    const rc = rows[i + 2]!;
    const rd = rows[i + 3]!;
    const re = rows[i + 4]!;
    const rf = rows[i + 5]!;
    const rm = rows[i + 6]!;
    const rn = rows[i + 7]!;
    const ga = gh[2 * ra]!;
    const ha = gh[2 * ra + 1]!;
    const gb = gh[2 * rb]!;
    const hb = gh[2 * rb + 1]!;
    const gc = gh[2 * rc]!;
    const hc = gh[2 * rc + 1]!;
    const gd = gh[2 * rd]!;
    const hd = gh[2 * rd + 1]!;
    const ge = gh[2 * re]!;
    const he = gh[2 * re + 1]!;
    const gf = gh[2 * rf]!;
    const hf = gh[2 * rf + 1]!;
    const gm = gh[2 * rm]!;
    const hm = gh[2 * rm + 1]!;
    const gn = gh[2 * rn]!;
    const hn = gh[2 * rn + 1]!;
    const db = (rb - ra) * words;
    const dc = (rc - ra) * words;
    const dd = (rd - ra) * words;
    const de = (re - ra) * words;
    const df = (rf - ra) * words;
    const dm = (rm - ra) * words;
    const dn = (rn - ra) * words;
    for (let e = ra * words, e1 = e + words; e < e1; e++) {
      const wa = dense32[e]!;
      const wb = dense32[e + db]!;
      const wc = dense32[e + dc]!;
      const wd = dense32[e + dd]!;
      const we = dense32[e + de]!;
      const wf = dense32[e + df]!;
      const wm = dense32[e + dm]!;
      const wn = dense32[e + dn]!;
      // Rows a, b, … in order within each column.
      let k = wa & 0xffff;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb & 0xffff;
      hist[k]! += gb;
      hist[k + 1]! += hb;
      k = wc & 0xffff;
      hist[k]! += gc;
      hist[k + 1]! += hc;
      k = wd & 0xffff;
      hist[k]! += gd;
      hist[k + 1]! += hd;
      k = we & 0xffff;
      hist[k]! += ge;
      hist[k + 1]! += he;
      k = wf & 0xffff;
      hist[k]! += gf;
      hist[k + 1]! += hf;
      k = wm & 0xffff;
      hist[k]! += gm;
      hist[k + 1]! += hm;
      k = wn & 0xffff;
      hist[k]! += gn;
      hist[k + 1]! += hn;
      k = wa >>> 16;
      hist[k]! += ga;
      hist[k + 1]! += ha;
      k = wb >>> 16;
      hist[k]! += gb;
      hist[k + 1]! += hb;
      k = wc >>> 16;
      hist[k]! += gc;
      hist[k + 1]! += hc;
      k = wd >>> 16;
      hist[k]! += gd;
      hist[k + 1]! += hd;
      k = we >>> 16;
      hist[k]! += ge;
      hist[k + 1]! += he;
      k = wf >>> 16;
      hist[k]! += gf;
      hist[k + 1]! += hf;
      k = wm >>> 16;
      hist[k]! += gm;
      hist[k + 1]! += hm;
      k = wn >>> 16;
      hist[k]! += gn;
      hist[k + 1]! += hn;
    }
  }
  for (; i < end; i++) {
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
