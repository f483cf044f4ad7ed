/**
 * Worker thread of a background evaluation (evaluation-thread.ts): the estimation of a large window
 * (bootstrap replicates over every search) runs here so the service's event loop keeps answering.
 * One evaluation per thread: it answers and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { estimate, type EstimationInput } from './estimate.js';

try {
  parentPort!.postMessage({ ok: true, output: estimate(workerData as EstimationInput) });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
