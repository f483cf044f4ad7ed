/** Worker thread of multi-threaded ranker training (ranker-threads.ts): serves one block of features. */
import { workerData } from 'node:worker_threads';
import { serveSplitWorker, type SplitWorkerData } from '../../ranker/index.js';

serveSplitWorker(workerData as SplitWorkerData);
