import { Piscina } from 'piscina';
import type { TrainingInput, TrainingOutput } from './runs/protocol.js';

/** Runs training somewhere other than the HTTP event loop. */
export interface TrainingRunner {
  run(input: TrainingInput): Promise<TrainingOutput>;
  close(): Promise<void>;
}

/**
 * Worker threads via piscina. From the compiled build the worker is `training.worker.js`;
 * from source (tsx, vitest) it is the `.ts` file and the worker loads tsx itself, since
 * worker threads do not inherit the parent's TypeScript loader.
 */
export class PiscinaTrainingRunner implements TrainingRunner {
  private pool: Piscina | undefined;

  constructor(private readonly threads = 1) {}

  private get workers(): Piscina {
    if (!this.pool) {
      const fromSource = import.meta.url.endsWith('.ts');
      this.pool = new Piscina({
        filename: new URL(`./runs/training.worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
        minThreads: 0,
        maxThreads: this.threads,
        idleTimeout: 60_000,
        ...(fromSource ? { execArgv: ['--import', 'tsx'] } : {}),
      });
    }
    return this.pool;
  }

  run(input: TrainingInput): Promise<TrainingOutput> {
    return this.workers.run(input) as Promise<TrainingOutput>;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
