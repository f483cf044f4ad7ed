/**
 * Worker thread of multi-threaded ranker training (ranker-threads.ts): each message is one
 * training's data; it serves that training's block of features until STOP, then idles in the
 * pool for the next one.
 */
import { parentPort } from 'node:worker_threads';
import { serveSplitWorker, type SplitWorkerData } from '../../ranker/index.js';

parentPort!.on('message', (data: SplitWorkerData) => serveSplitWorker(data));
