import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../common/worker-threads.js';
import {
  train,
  trainOnClicks,
  type ClickLog,
  type ClickTrainOptions,
  type ClickTrainResult,
  type Dataset,
  type ObjectiveName,
  type SplitWorkerData,
  type TrainParams,
  type TrainResult,
} from '../../ranker/index.js';

/** `threads` as configured: 0 = every core. */
export function resolveThreads(threads: number): number {
  if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threads must be a non-negative integer, got ${threads}`);
  return threads === 0 ? availableParallelism() : threads;
}

/**
 * Split workers of this thread, kept between trainings: starting one (from source, compiling
 * tsx in it) and warming its JIT cost about 0.5 s, as much as training the 2 400-row sample.
 * Trainings in one thread run one at a time (`train` is synchronous), so each takes the first
 * n − 1 of these; a worker serves one training per message and idles in between (unref'd:
 * it never holds the process open). One that died is dropped.
 */
const pool: Worker[] = [];

function poolWorker(i: number): Worker {
  const existing = pool[i];
  if (existing) return existing;
  const worker = moduleWorker(import.meta.url, './ranker-split.worker');
  worker.unref();
  worker.once('exit', () => {
    const at = pool.indexOf(worker);
    if (at >= 0) pool.splice(at, 1);
  });
  pool[i] = worker;
  return worker;
}

/** A spawner for one training: its k-th worker is the pool's k-th, sent this training's data. */
export function splitWorkerSpawner(): (data: SplitWorkerData) => void {
  let used = 0;
  return (data) => poolWorker(used++).postMessage(data);
}

/**
 * `train` with `threads` honoured: 1 trains in this thread, n > 1 builds histograms
 * feature-parallel in n − 1 worker threads (pooled) plus this one, 0 uses every core.
 * Synchronous like `train` (this thread waits on the workers with Atomics).
 */
export function trainThreaded(
  data: Dataset,
  params: Partial<TrainParams> & { objective: ObjectiveName },
  validation?: Dataset,
): TrainResult {
  const threads = resolveThreads(params.threads ?? 1);
  return train(data, { ...params, threads }, validation, { spawnSplitWorker: splitWorkerSpawner() });
}

/** `trainOnClicks` with `threads` honoured the same way (src/ranker/clicks: LambdaMART on a click log). */
export function trainOnClicksThreaded(log: ClickLog, params: Partial<TrainParams>, options: ClickTrainOptions): ClickTrainResult {
  const threads = resolveThreads(params.threads ?? 1);
  return trainOnClicks(log, { ...params, threads }, options, { spawnSplitWorker: splitWorkerSpawner() });
}
