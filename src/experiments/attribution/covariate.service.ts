import type { ExposureRecord } from '../model/exposure.store.js';
import type { NewExposure, PreExposureCovariateStore } from './pre-exposure-covariates.store.js';

const MAX_QUEUE = 200_000;
const BATCH = 500;

/**
 * Queues first exposures in memory and computes their pre-exposure covariates in the
 * background (off the assign path). A crash loses at most the queue: those units simply have no
 * pre-exposure covariate, which does not depend on their variant, so CUPED stays unbiased.
 */
export class CovariateService {
  private queue: NewExposure[] = [];
  private dropped = 0;

  constructor(private readonly store: PreExposureCovariateStore) {}

  enqueue(rows: readonly ExposureRecord[]): void {
    for (const r of rows) {
      if (this.queue.length >= MAX_QUEUE) {
        this.dropped += 1;
        continue;
      }
      this.queue.push({ experimentId: r.experimentId, phase: r.phase, unitId: r.unitId, exposedAt: r.exposedAt });
    }
  }

  /** Units skipped because the queue was full (reported, never silent). */
  get droppedUnits(): number {
    return this.dropped;
  }

  async drain(): Promise<number> {
    let written = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        written += await this.store.compute(batch);
      } catch (error) {
        this.queue.unshift(...batch);
        throw error;
      }
    }
    return written;
  }
}
