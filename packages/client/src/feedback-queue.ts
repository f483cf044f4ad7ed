import { SearchloopError, isRetryable } from './errors.js';
import type { Transport } from './transport.js';

/** One feedback item of the contract plus its session. */
export interface TrackInput {
  sessionId: string;
  queryId: string;
  rating?: number;
  metadata?: {
    userAction?: string;
    timestamp?: string;
    resultId?: string;
    queryHash?: string;
    engagementType?: string;
    customMetadata?: Record<string, unknown>;
  };
}

export type DropReason = 'queue-full' | 'invalid' | 'rejected' | 'failed';

export interface FeedbackQueueOptions {
  /** Items held (queued and in flight) before new ones are dropped (default 10 000). */
  maxQueue?: number;
  /** Items per request, at most the API's 1000 (default 1000). */
  batchSize?: number;
  /** Flush what is queued this often in ms (default 2000; 0: only by size and by hand). */
  flushIntervalMs?: number;
  /** Called with the items given up on and why. */
  onDrop?: (items: TrackInput[], reason: DropReason, error?: SearchloopError) => void;
}

export interface FlushResult {
  /** Items the service acknowledged. */
  sent: number;
  /** Items given up on (a 4xx answer, or retries exhausted), with the errors that caused it. */
  dropped: number;
  errors: SearchloopError[];
}

export interface FeedbackStats {
  queued: number;
  inFlight: number;
  sent: number;
  /** Every item dropped since the client was made, by any reason. */
  dropped: number;
  droppedByReason: Record<DropReason, number>;
}

const API_MAX_ITEMS = 1000;
/** Body bytes per request, well under the service's default 2 MiB body limit. */
const MAX_BATCH_BYTES = 1_000_000;
/** Fetch keepalive bodies share a 64 KiB budget per page; stay under it. */
const KEEPALIVE_BYTES = 60_000;

function newKey(): string {
  const crypto = globalThis.crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  let key = '';
  for (let i = 0; i < 32; i++) key += Math.floor(Math.random() * 16).toString(16);
  return key;
}

interface Batch {
  sessionId: string;
  items: TrackInput[];
  body: string;
  key: string;
}

function toBatches(items: TrackInput[], maxItems: number, maxBytes: number): Batch[] {
  const bySession = new Map<string, TrackInput[]>();
  for (const item of items) {
    const list = bySession.get(item.sessionId);
    if (list) list.push(item);
    else bySession.set(item.sessionId, [item]);
  }
  const batches: Batch[] = [];
  for (const [sessionId, list] of bySession) {
    let current: TrackInput[] = [];
    let parts: string[] = [];
    let bytes = 0;
    const close = () => {
      if (current.length === 0) return;
      const body = `{"sessionId":${JSON.stringify(sessionId)},"feedback":[${parts.join(',')}]}`;
      batches.push({ sessionId, items: current, body, key: newKey() });
      current = [];
      parts = [];
      bytes = 0;
    };
    for (const item of list) {
      const { sessionId: _session, ...rest } = item;
      const json = JSON.stringify(rest);
      if (current.length >= maxItems || (current.length > 0 && bytes + json.length > maxBytes)) close();
      current.push(item);
      parts.push(json);
      bytes += json.length + 1;
    }
    close();
  }
  return batches;
}

function invalid(item: TrackInput): boolean {
  return (
    !item ||
    typeof item.sessionId !== 'string' ||
    item.sessionId === '' ||
    typeof item.queryId !== 'string' ||
    item.queryId === '' ||
    (item.rating === undefined && !item.metadata?.userAction)
  );
}

/**
 * The in-memory queue behind `feedback.track`. Drop policy: the queue holds at most `maxQueue`
 * items (queued plus in flight); when it is full a new item is dropped (the oldest are already
 * on their way), counted in `stats.dropped` and passed to `onDrop`. A batch the service refuses
 * with a 4xx other than 408/429, or that still fails after every retry, is dropped the same way.
 */
export class FeedbackQueue {
  private pending: TrackInput[] = [];
  private inFlight = new Set<Promise<FlushResult>>();
  private inFlightItems = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly maxQueue: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly counters: FeedbackStats = {
    queued: 0,
    inFlight: 0,
    sent: 0,
    dropped: 0,
    droppedByReason: { 'queue-full': 0, invalid: 0, rejected: 0, failed: 0 },
  };

  constructor(
    private readonly transport: Transport,
    private readonly options: FeedbackQueueOptions = {},
  ) {
    this.maxQueue = options.maxQueue ?? 10_000;
    this.batchSize = Math.max(1, Math.min(API_MAX_ITEMS, options.batchSize ?? API_MAX_ITEMS));
    this.intervalMs = options.flushIntervalMs ?? 2000;
  }

  get stats(): FeedbackStats {
    return {
      ...this.counters,
      droppedByReason: { ...this.counters.droppedByReason },
      queued: this.pending.length,
      inFlight: this.inFlightItems,
    };
  }

  /** Queues one item; false when it was dropped (invalid, or the queue is full). */
  track(item: TrackInput): boolean {
    if (invalid(item)) {
      this.drop([item], 'invalid');
      return false;
    }
    if (this.pending.length + this.inFlightItems >= this.maxQueue) {
      this.drop([item], 'queue-full');
      return false;
    }
    this.pending.push(item);
    if (this.pending.length >= this.batchSize) void this.send();
    else this.arm();
    return true;
  }

  /** Settles when everything queued so far is acknowledged or dropped; never rejects. */
  async flush(): Promise<FlushResult> {
    const earlier = [...this.inFlight];
    const own = this.send();
    const results = await Promise.all([own, ...earlier]);
    return results.reduce(
      (sum, r) => ({ sent: sum.sent + r.sent, dropped: sum.dropped + r.dropped, errors: [...sum.errors, ...r.errors] }),
      { sent: 0, dropped: 0, errors: [] as SearchloopError[] },
    );
  }

  /**
   * Page exit: sends what is queued with `fetch(…, {keepalive: true})`, which outlives the page,
   * in requests that fit the browser's 64 KiB keepalive budget. No retries (the page is gone);
   * each request keeps its Idempotency-Key, so nothing is stored twice.
   */
  flushOnExit(): void {
    this.disarm();
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    let budget = KEEPALIVE_BYTES;
    const kept: TrackInput[] = [];
    for (const batch of toBatches(items, this.batchSize, KEEPALIVE_BYTES - 200)) {
      if (batch.body.length > budget) {
        kept.push(...batch.items);
        continue;
      }
      budget -= batch.body.length;
      this.counters.sent += batch.items.length;
      this.transport
        .once('POST', '/api/cortex/feedback', { headers: { 'idempotency-key': batch.key }, keepalive: true }, batch.body)
        .catch((error: SearchloopError) => {
          this.counters.sent -= batch.items.length;
          this.drop(batch.items, 'failed', error);
        });
    }
    // What did not fit stays queued: a page restored from the back/forward cache sends it later.
    this.pending = kept;
  }

  close(): void {
    this.disarm();
  }

  private arm(): void {
    if (this.timer !== undefined || this.intervalMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drop(items: TrackInput[], reason: DropReason, error?: SearchloopError): void {
    this.counters.dropped += items.length;
    this.counters.droppedByReason[reason] += items.length;
    this.options.onDrop?.(items, reason, error);
  }

  private send(): Promise<FlushResult> {
    this.disarm();
    const items = this.pending;
    this.pending = [];
    const batches = toBatches(items, this.batchSize, MAX_BATCH_BYTES);
    const work = Promise.all(batches.map((batch) => this.sendBatch(batch))).then((results) =>
      results.reduce((sum, r) => ({ sent: sum.sent + r.sent, dropped: sum.dropped + r.dropped, errors: [...sum.errors, ...r.errors] }), {
        sent: 0,
        dropped: 0,
        errors: [] as SearchloopError[],
      }),
    );
    this.inFlight.add(work);
    void work.then(() => this.inFlight.delete(work));
    return work;
  }

  private async sendBatch(batch: Batch): Promise<FlushResult> {
    this.inFlightItems += batch.items.length;
    try {
      await this.transport.request('POST', '/api/cortex/feedback', {
        headers: { 'idempotency-key': batch.key },
        rawBody: batch.body,
      });
      this.counters.sent += batch.items.length;
      return { sent: batch.items.length, dropped: 0, errors: [] };
    } catch (caught) {
      const error =
        caught instanceof SearchloopError
          ? caught
          : new SearchloopError({ code: 'CLIENT_ERROR', status: 0, message: String((caught as Error)?.message ?? caught) });
      this.drop(batch.items, isRetryable(error) ? 'failed' : 'rejected', error);
      return { sent: 0, dropped: batch.items.length, errors: [error] };
    } finally {
      this.inFlightItems -= batch.items.length;
    }
  }
}
