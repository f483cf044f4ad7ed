import { DENSE_THRESHOLD } from './histogram.js';
import { LocalLeafSplitter, type LeafRange, type LeafSplitter, type SplitterData } from './leaf-splitter.js';
import type { SplitCandidate } from './split-finder.js';
import { CMD, CTRL, RESULT_WIDTH, type SplitWorkerData } from './split-protocol.js';

/**
 * Starts one split worker thread on this data (`serveSplitWorker` is what it runs). Thread
 * machinery lives outside this pure folder: see src/learning/training/ranker-threads.ts.
 */
export type SpawnSplitWorker = (data: SplitWorkerData) => void;

/** How long to wait for a worker to start or answer before giving up (a worker that died never answers). */
const TIMEOUT_MS = 60_000;

/**
 * Contiguous feature blocks of about equal work, one per thread. A block's work is its cells
 * (histogram building: every row for a feature on the dense path, where a missing value is a
 * cell too, the present rows for a sparse one) plus its bins (zeroing, subtraction and the
 * split scan), both per leaf; a bin is weighted like 4 cells, roughly what the scan costs
 * against an add.
 */
export function featureBlocks(data: SplitterData, threads: number): number[] {
  const { colBins, numRows: n, numFeatures: F, mapper } = data;
  const cost = new Float64Array(F);
  let total = 0;
  for (let f = 0; f < F; f++) {
    const nb = mapper.numBins[f]!;
    if (nb < 2) continue;
    let present = 0;
    for (let r = 0, base = f * n; r < n; r++) if (colBins[base + r] !== nb) present++;
    cost[f] = (present >= DENSE_THRESHOLD * n ? n : present) + 4 * (nb + 1);
    total += cost[f]!;
  }
  const bounds = [0];
  let acc = 0;
  for (let f = 0; f < F && bounds.length < threads; f++) {
    acc += cost[f]!;
    if (acc >= (total * bounds.length) / threads) bounds.push(f + 1);
  }
  while (bounds.length < threads) bounds.push(F);
  bounds.push(F);
  return bounds;
}

/**
 * Feature-parallel histograms: thread t owns features [bounds[t], bounds[t+1]) and builds,
 * subtracts and scans their histograms; this thread takes block 0 itself, workers the rest.
 * Rows, gradients and bins are SharedArrayBuffers the tree builder writes between calls; each
 * call is one round trip (a sequence number bumped with Atomics.notify, a done counter waited
 * on), so a tree of L leaves costs L synchronisations. The best split is the highest gain,
 * ties to the feature listed first — exactly what the single-threaded scan picks.
 */
export class ParallelLeafSplitter implements LeafSplitter {
  private readonly local: LocalLeafSplitter;
  private workers = 0;
  private readonly ctrl: Int32Array;
  private readonly fargs: Float64Array;
  private readonly featureBuf: Int32Array;
  private readonly results: Float64Array;
  private readonly position: Int32Array;
  private features: Int32Array = new Int32Array(0);
  private seq = 0;

  constructor(data: SplitterData, threads: number, spawn: SpawnSplitWorker) {
    const bounds = featureBlocks(data, threads);
    this.local = new LocalLeafSplitter(data, bounds[0], bounds[1]);
    const workerCount = threads - 1;
    this.ctrl = new Int32Array(new SharedArrayBuffer(CTRL.SIZE * 4));
    this.fargs = new Float64Array(new SharedArrayBuffer(4 * 8));
    this.featureBuf = new Int32Array(new SharedArrayBuffer(Math.max(1, data.numFeatures) * 4));
    this.results = new Float64Array(new SharedArrayBuffer(Math.max(1, workerCount) * 2 * RESULT_WIDTH * 8));
    this.position = new Int32Array(data.numFeatures);
    for (let w = 0; w < workerCount; w++) {
      const workerData: SplitWorkerData = {
        colBins: data.colBins,
        rows: data.rows,
        gh: data.gh,
        quant: data.quant,
        numRows: data.numRows,
        numFeatures: data.numFeatures,
        mapper: { numBins: data.mapper.numBins, offsets: data.mapper.offsets, totalBins: data.mapper.totalBins },
        params: data.params,
        lo: bounds[w + 1]!,
        hi: bounds[w + 2]!,
        index: w,
        workers: workerCount,
        ctrl: this.ctrl,
        fargs: this.fargs,
        features: this.featureBuf,
        results: this.results,
      };
      spawn(workerData);
    }
    this.workers = workerCount;
    this.await(CTRL.READY, workerCount, 'start');
  }

  setFeatures(features: Int32Array): void {
    this.features = features;
    this.featureBuf.set(features);
    for (let j = 0; j < features.length; j++) this.position[features[j]!] = j;
    this.local.setFeatures(features);
  }

  root(slot: number, leaf: LeafRange): SplitCandidate | null {
    this.setRange(CTRL.SMALL, 0, leaf);
    this.dispatch(CMD.ROOT, slot, 0);
    const own = this.local.root(slot, leaf);
    this.await(CTRL.DONE, this.workers, 'answer');
    return this.pick(own, 0, leaf);
  }

  children(parentSlot: number, newSlot: number, small: LeafRange, large: LeafRange): [SplitCandidate | null, SplitCandidate | null] {
    this.setRange(CTRL.SMALL, 0, small);
    this.setRange(CTRL.LARGE, 2, large);
    this.dispatch(CMD.CHILDREN, parentSlot, newSlot);
    const [ownSmall, ownLarge] = this.local.children(parentSlot, newSlot, small, large);
    this.await(CTRL.DONE, this.workers, 'answer');
    return [this.pick(ownSmall, 0, small), this.pick(ownLarge, 1, large)];
  }

  close(): void {
    if (this.workers === 0) return;
    this.dispatch(CMD.STOP, 0, 0);
    this.workers = 0;
    this.local.close();
  }

  private setRange(at: number, fat: number, leaf: LeafRange): void {
    this.ctrl[at] = leaf.begin;
    this.ctrl[at + 1] = leaf.end;
    this.ctrl[at + 2] = leaf.evaluate ? 1 : 0;
    this.fargs[fat] = leaf.g;
    this.fargs[fat + 1] = leaf.h;
  }

  private dispatch(cmd: number, a: number, b: number): void {
    const { ctrl } = this;
    ctrl[CTRL.CMD] = cmd;
    ctrl[CTRL.SLOT_A] = a;
    ctrl[CTRL.SLOT_B] = b;
    ctrl[CTRL.NFEATURES] = this.features.length;
    Atomics.store(ctrl, CTRL.DONE, 0);
    Atomics.store(ctrl, CTRL.SEQ, ++this.seq);
    Atomics.notify(ctrl, CTRL.SEQ);
  }

  private await(index: number, count: number, what: string): void {
    const { ctrl } = this;
    const deadline = Date.now() + TIMEOUT_MS;
    for (let v = Atomics.load(ctrl, index); v < count; v = Atomics.load(ctrl, index)) {
      if (Date.now() > deadline) {
        this.close();
        throw new Error(`ranker worker threads did not ${what} within ${TIMEOUT_MS / 1000} s`);
      }
      Atomics.wait(ctrl, index, v, 1000);
    }
    if (ctrl[CTRL.ERROR] !== 0) {
      this.close();
      throw new Error('a ranker worker thread failed while building histograms');
    }
  }

  /** This thread's candidate against each worker's (which = 0: small/root, 1: large). */
  private pick(own: SplitCandidate | null, which: number, leaf: LeafRange): SplitCandidate | null {
    let best = own;
    const count = leaf.end - leaf.begin;
    for (let w = 0; w < this.workers; w++) {
      const at = (w * 2 + which) * RESULT_WIDTH;
      const r = this.results;
      if (r[at] !== 1) continue;
      const gain = r[at + 1]!;
      const feature = r[at + 2]!;
      if (best && (gain < best.gain || (gain === best.gain && this.position[feature]! > this.position[best.feature]!))) continue;
      const leftG = r[at + 5]!;
      const leftH = r[at + 6]!;
      const leftCount = r[at + 7]!;
      best = {
        gain,
        feature,
        bin: r[at + 3]!,
        defaultLeft: r[at + 4] === 1,
        leftG,
        leftH,
        leftCount,
        rightG: leaf.g - leftG,
        rightH: leaf.h - leftH,
        rightCount: count - leftCount,
      };
    }
    return best;
  }
}
