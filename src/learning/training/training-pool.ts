import type { Piscina } from 'piscina';
import { modulePool } from '../../common/worker-threads.js';
import type { TrainingInput, TrainingOutput } from './runs/protocol.js';

/** Runs training somewhere other than the HTTP event loop. */
export interface TrainingRunner {
  run(input: TrainingInput): Promise<TrainingOutput>;
  close(): Promise<void>;
}

/** Worker threads via piscina, running `runs/training.worker` (common/worker-threads.ts starts them). */
export class PiscinaTrainingRunner implements TrainingRunner {
  private pool: Piscina<TrainingInput, TrainingOutput> | undefined;

  constructor(private readonly threads = 1) {}

  private get workers(): Piscina<TrainingInput, TrainingOutput> {
    this.pool ??= modulePool<TrainingInput, TrainingOutput>(import.meta.url, './runs/training.worker', {
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: 60_000,
    });
    return this.pool;
  }

  run(input: TrainingInput): Promise<TrainingOutput> {
    return this.workers.run(input);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
