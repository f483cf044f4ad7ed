import { parentPort, workerData } from 'node:worker_threads';
import { sampleSize, type SampleSizeInput } from '../../../src/stats/planning/power.js';

// Runs in a worker thread so a solver that never returns can be terminated by the test.
parentPort?.postMessage(sampleSize(workerData as SampleSizeInput));
