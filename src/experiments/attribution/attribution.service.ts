import type { Clock } from '../../common/clock.js';
import { planAttribution } from './attribution.js';
import type { AttributionStore } from './attribution.store.js';

/**
 * Folds newly arrived feedback into per-unit experiment statistics, in batches, exactly once
 * per item. Runs as a periodic job and on demand before results are computed.
 */
export class AttributionService {
  private lastCompletedAt: number | null = null;
  private running: Promise<number> | undefined;

  constructor(
    private readonly store: AttributionStore,
    private readonly clock: Clock,
    private readonly batchSize = 2000,
  ) {}

  /** When attribution last reached the end of the backlog (the freshness of results). */
  get freshAsOf(): number | null {
    return this.lastCompletedAt;
  }

  /** Processes the whole backlog; concurrent callers share one run. Returns items processed. */
  catchUp(): Promise<number> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const startedAt = this.clock.now();
      const processed = await this.store.attributeNext(this.batchSize, planAttribution);
      if (processed === null) return total; // another instance is attributing
      total += processed;
      if (processed < this.batchSize) {
        this.lastCompletedAt = startedAt;
        return total;
      }
    }
  }
}
