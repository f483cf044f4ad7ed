import type { Clock } from '../../common/clock.js';
import { planAttribution } from './attribution.js';
import type { AttributionStore } from './attribution.store.js';
import { drainBatches, singleFlight } from '../../common/batches.js';

/**
 * Folds newly arrived feedback into per-unit experiment statistics, in batches, exactly once
 * per item. Runs as a periodic job and on demand before results are computed.
 */
export class AttributionService {
  private lastCompletedAt: number | null = null;

  constructor(
    private readonly store: AttributionStore,
    private readonly clock: Clock,
    private readonly batchSize = 250,
  ) {}

  /** When attribution last reached the end of the backlog (the freshness of results). */
  get freshAsOf(): number | null {
    return this.lastCompletedAt;
  }

  /** Processes the whole backlog; concurrent callers share one run. Returns items processed. */
  // `stop` is the scheduler's signal when a background run calls; a request catching up passes none.
  readonly catchUp = singleFlight((stop) =>
    drainBatches(
      this.batchSize,
      () => this.clock.now(),
      () => this.store.attributeNext(this.batchSize, planAttribution),
      {
        stop,
        onCaughtUp: (startedAt) => {
          this.lastCompletedAt = startedAt;
        },
      },
    ),
  );
}
