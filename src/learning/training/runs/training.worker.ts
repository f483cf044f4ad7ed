import type { TrainingInput, TrainingOutput } from './protocol.js';
import { runTraining } from './run-training.js';

/** Piscina entry: runs in a worker thread, so a fit never holds the HTTP event loop. */
export default function trainInWorker(input: TrainingInput): TrainingOutput {
  return runTraining(input);
}
