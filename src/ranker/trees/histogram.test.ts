import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../random/index.js';
import { binData } from '../data/binning.js';
import type { Dataset } from '../data/dataset.js';
import { histLength, HistogramBuilder } from './histogram.js';
import { HIST_WIDTH } from './split-finder.js';

/** Random data: `dense` mostly-present columns, `sparse` ones 80 % missing, one constant; seeded. */
function dataset(rows: number, dense: number, sparse: number, seed: number): Dataset {
  const rng = mulberry32(seed);
  const F = dense + sparse + 1;
  const features = new Float32Array(rows * F);
  for (let r = 0; r < rows; r++)
    for (let f = 0; f < F; f++) {
      const missing = f < dense ? rng() < 0.05 : f < dense + sparse ? rng() < 0.8 : false;
      features[r * F + f] = missing ? NaN : f === F - 1 ? 1 : Math.round(rng() * 1000) / 10;
    }
  return { numRows: rows, numFeatures: F, features, labels: new Float32Array(rows), featureNames: [] };
}

/** The histogram by definition: per selected feature, Σg and Σ packed per bin (missing included). */
function naive(
  colBins: Uint8Array,
  n: number,
  offsets: Int32Array,
  numBins: Int32Array,
  rows: Int32Array,
  gh: Float64Array,
  features: number[],
) {
  const out = new Map<number, number>();
  for (const f of features) {
    if (numBins[f]! < 2) continue;
    for (let k = offsets[f]! * HIST_WIDTH; k < offsets[f + 1]! * HIST_WIDTH; k++) out.set(k, 0);
    for (const r of rows) {
      const k = (offsets[f]! + colBins[f * n + r]!) * HIST_WIDTH;
      out.set(k, out.get(k)! + gh[2 * r]!);
      out.set(k + 1, out.get(k + 1)! + gh[2 * r + 1]!);
    }
  }
  return out;
}

describe('HistogramBuilder', () => {
  // 7 dense columns (padded to 8: the 4-cell step), with narrow (Uint16) and wide (Int32) slots:
  // 255 bins × 300 features do not fit 16 bits.
  for (const [label, dense, sparse] of [
    ['narrow slots, padded rows', 7, 3],
    ['wide slots', 301, 2],
  ] as const) {
    it(`matches the histogram by definition (${label}), all features and a subset`, () => {
      const n = 600;
      const data = dataset(n, dense, sparse, 11);
      const { mapper, colBins } = binData(data, 255);
      const hb = new HistogramBuilder(colBins, n, data.numFeatures, mapper);
      const rng = mulberry32(5);
      const gh = new Float64Array(2 * n);
      // Integer-valued gradients: sums are exact in any order.
      for (let r = 0; r < n; r++) {
        gh[2 * r] = Math.round(rng() * 200) - 100;
        gh[2 * r + 1] = Math.round(rng() * 50) * 1024 + 1;
      }
      const rows = Int32Array.from({ length: n }, (_, i) => i).filter(() => rng() < 0.4);
      const all = [...Array(data.numFeatures).keys()];
      for (const features of [all, all.filter((f) => f % 3 !== 1)]) {
        const fs = Int32Array.from(features);
        hb.setFeatures(fs);
        // Every row count mod 8 (rows go eight at a time, then one by one).
        for (let m = rows.length - 7; m <= rows.length; m++) {
          const part = rows.subarray(0, m);
          let g0 = 0;
          let p0 = 0;
          for (const r of part) {
            g0 += gh[2 * r]!;
            p0 += gh[2 * r + 1]!;
          }
          const hist = new Float64Array(histLength(mapper.totalBins)).fill(7);
          hb.build(hist, rows, 0, m, g0, p0, gh, fs);
          const want = naive(colBins, n, mapper.offsets, mapper.numBins, part, gh, features);
          expect(want.size).toBeGreaterThan(0);
          // One assertion per build (not per cell: 150 000 expect calls per build took 30 s on a loaded machine).
          const wrong: [number, number, number][] = [];
          for (const [k, v] of want) if (hist[k] !== v) wrong.push([k, hist[k]!, v]);
          expect(wrong.slice(0, 5)).toEqual([]);
        }
      }
    });
  }
});
