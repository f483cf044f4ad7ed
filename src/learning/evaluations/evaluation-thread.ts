import { moduleWorker } from '../../common/worker-threads.js';
import type { EstimationInput, EstimationOutput } from './estimate.js';

/** `estimate` on a worker thread of its own (evaluation.worker.ts): started per background evaluation. */
export function estimateOnThread(input: EstimationInput): Promise<EstimationOutput> {
  return new Promise((resolve, reject) => {
    const worker = moduleWorker(import.meta.url, './evaluation.worker', input);
    let settled = false;
    worker.once('message', (m: { ok: true; output: EstimationOutput } | { ok: false; error: string }) => {
      settled = true;
      if (m.ok) resolve(m.output);
      else reject(new Error(m.error));
    });
    worker.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`evaluation worker exited (code ${code}) without an answer`));
    });
  });
}
