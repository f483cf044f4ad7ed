import { FeedbackQueue, type FeedbackQueueOptions, type FeedbackStats, type FlushResult, type TrackInput } from './feedback-queue.js';
import { onPageExit } from './page-exit.js';
import { Transport, type FetchLike } from './transport.js';

export { SearchloopError } from './errors.js';
export type { FeedbackStats, FlushResult, TrackInput } from './feedback-queue.js';

export interface BeaconOptions extends FeedbackQueueOptions {
  baseUrl: string;
  /** An `ingest` key (it is visible to the page's users: give it that scope only). */
  apiKey?: string;
  fetch?: FetchLike;
}

/**
 * Feedback only, for pages: the same queue, batching, retries and page-exit flush as the full
 * client's `feedback`, without the rest of the API (kept under 4 KB min+gzip by the build).
 */
export function createBeacon(options: BeaconOptions) {
  const queue = new FeedbackQueue(new Transport(options), options);
  const stop = onPageExit(() => queue.flushOnExit());
  return {
    track: (item: TrackInput): boolean => queue.track(item),
    flush: (): Promise<FlushResult> => queue.flush(),
    get stats(): FeedbackStats {
      return queue.stats;
    },
    close(): void {
      queue.close();
      stop();
    },
  };
}
