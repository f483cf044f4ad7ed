import { LocalLeafSplitter, type LeafRange, type SplitterData } from './leaf-splitter.js';
import type { SplitCandidate } from './split-finder.js';

/** Slots of the shared Int32Array that drives the split workers (parallel-splitter.ts). */
export const CTRL = {
  /** Bumped by the main thread for every command; workers wait on it. */
  SEQ: 0,
  /** Workers that finished the current command. */
  DONE: 1,
  /** Workers that started. */
  READY: 2,
  /** Set by a worker whose command threw. */
  ERROR: 3,
  CMD: 4,
  SLOT_A: 5,
  SLOT_B: 6,
  NFEATURES: 7,
  /** begin, end, evaluate of the root or smaller child; g, h in fargs[0..1]. */
  SMALL: 8,
  /** begin, end, evaluate of the larger child; g, h in fargs[2..3]. */
  LARGE: 11,
  SIZE: 14,
} as const;

export const CMD = { ROOT: 1, CHILDREN: 2, STOP: 3 } as const;

/** Per worker, two candidates (root/smaller, larger): valid, gain, feature, bin, defaultLeft, leftG, leftH, leftCount. */
export const RESULT_WIDTH = 8;

export interface SplitWorkerData extends SplitterData {
  readonly lo: number;
  readonly hi: number;
  readonly index: number;
  readonly workers: number;
  readonly ctrl: Int32Array;
  readonly fargs: Float64Array;
  readonly features: Int32Array;
  readonly results: Float64Array;
}

export function writeCandidate(out: Float64Array, at: number, c: SplitCandidate | null): void {
  out[at] = c ? 1 : 0;
  if (!c) return;
  out[at + 1] = c.gain;
  out[at + 2] = c.feature;
  out[at + 3] = c.bin;
  out[at + 4] = c.defaultLeft ? 1 : 0;
  out[at + 5] = c.leftG;
  out[at + 6] = c.leftH;
  out[at + 7] = c.leftCount;
}

/**
 * The loop a split worker thread runs until told to stop: build, subtract and scan the
 * histograms of features [lo, hi) on each command (driver: parallel-splitter.ts).
 */
export function serveSplitWorker(d: SplitWorkerData): void {
  const { ctrl, fargs, results } = d;
  const splitter = new LocalLeafSplitter(d, d.lo, d.hi);
  const out = d.index * 2 * RESULT_WIDTH;

  const range = (at: number, fat: number): LeafRange => ({
    begin: ctrl[at]!,
    end: ctrl[at + 1]!,
    evaluate: ctrl[at + 2] === 1,
    g: fargs[fat]!,
    h: fargs[fat + 1]!,
  });

  Atomics.add(ctrl, CTRL.READY, 1);
  Atomics.notify(ctrl, CTRL.READY);
  let seen = 0;
  for (;;) {
    Atomics.wait(ctrl, CTRL.SEQ, seen);
    seen = Atomics.load(ctrl, CTRL.SEQ);
    const cmd = ctrl[CTRL.CMD];
    if (cmd === CMD.STOP) break;
    try {
      if (cmd === CMD.ROOT) {
        splitter.setFeatures(d.features.slice(0, ctrl[CTRL.NFEATURES]));
        writeCandidate(results, out, splitter.root(ctrl[CTRL.SLOT_A]!, range(CTRL.SMALL, 0)));
      } else {
        const [small, large] = splitter.children(ctrl[CTRL.SLOT_A]!, ctrl[CTRL.SLOT_B]!, range(CTRL.SMALL, 0), range(CTRL.LARGE, 2));
        writeCandidate(results, out, small);
        writeCandidate(results, out + RESULT_WIDTH, large);
      }
    } catch {
      Atomics.store(ctrl, CTRL.ERROR, 1);
    }
    Atomics.add(ctrl, CTRL.DONE, 1);
    Atomics.notify(ctrl, CTRL.DONE);
  }
  splitter.close();
}
