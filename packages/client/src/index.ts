import type { QueryOf, RankRequest, RankResponse, RequestBody, ResponseData } from './api-types.js';
import { FeedbackQueue, type FeedbackQueueOptions, type FeedbackStats, type FlushResult, type TrackInput } from './feedback-queue.js';
import { onPageExit } from './page-exit.js';
import { Transport, type FetchLike, type RetryPolicy } from './transport.js';

export { SearchloopError, type ErrorDetail } from './errors.js';
export type { DropReason, FeedbackQueueOptions, FeedbackStats, FlushResult, TrackInput } from './feedback-queue.js';
export type { FetchLike, RetryPolicy } from './transport.js';
export type * from './api-types.js';

export interface ClientOptions extends FeedbackQueueOptions {
  /** Where the service answers, e.g. https://searchloop.example.com */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 10 000). */
  timeoutMs?: number;
  /** Flush the feedback queue on pagehide / visibilitychange:hidden (browsers; default true). */
  flushOnPageExit?: boolean;
  /** @internal jitter source, for tests */
  random?: () => number;
}

type ExperimentsPath = '/api/nous/ab-testing/experiments';
type ExperimentPath = '/api/nous/ab-testing/experiments/{experimentId}';
type ModelsPath = '/api/nous/learn/models';
type ModelPath = '/api/nous/learn/models/{modelId}';
type AssignAllPath = '/api/nous/ab-testing/assign';
type ResultsPath = '/api/nous/ab-testing/experiments/{experimentId}/results';
type LifecycleAction = 'start' | 'pause' | 'resume' | 'stop' | 'archive';

export type AssignAttributes = NonNullable<RequestBody<AssignAllPath, 'post'>['attributes']>;
export type Assignment = ResponseData<AssignAllPath, 'post'>;

const enc = encodeURIComponent;
type Query = Record<string, string | number | boolean | undefined>;

export function createClient(options: ClientOptions) {
  const transport = new Transport(options);
  const queue = new FeedbackQueue(transport, options);
  const stopWatching = options.flushOnPageExit === false ? () => undefined : onPageExit(() => queue.flushOnExit());
  const assignments = new Map<string, Promise<Assignment>>();
  const req = transport.request.bind(transport);

  return {
    feedback: {
      /** Queues one item; false when it was dropped (see the drop policy in the README). */
      track: (item: TrackInput): boolean => queue.track(item),
      /** Settles when everything queued so far is acknowledged or dropped (and counts which). */
      flush: (): Promise<FlushResult> => queue.flush(),
      get stats(): FeedbackStats {
        return queue.stats;
      },
      /** One submission now, with an Idempotency-Key and retries (for back ends). */
      submit: (body: RequestBody<'/api/cortex/feedback', 'post'>, idempotencyKey?: string) =>
        req<ResponseData<'/api/cortex/feedback', 'post'>>('POST', '/api/cortex/feedback', {
          body,
          headers: { 'idempotency-key': idempotencyKey ?? globalThis.crypto.randomUUID() },
        }),
      list: (query?: Partial<QueryOf<'/api/cortex/feedback', 'get'>>) =>
        req<ResponseData<'/api/cortex/feedback', 'get'>>('GET', '/api/cortex/feedback', { query: query as Query }),
    },

    /** The unit's variants in every running experiment; one call per unit for the client's life. */
    assign(unitId: string, attributes?: AssignAttributes): Promise<Assignment> {
      let found = assignments.get(unitId);
      if (!found) {
        found = req<Assignment>('POST', '/api/nous/ab-testing/assign', {
          body: attributes ? { unitId, attributes } : { unitId },
          retry: true,
        });
        assignments.set(unitId, found);
        found.catch(() => assignments.delete(unitId));
      }
      return found;
    },

    /** The search-time call: the order to show for this query (POST /api/nous/rank). */
    rank: (body: RankRequest): Promise<RankResponse> => req<RankResponse>('POST', '/api/nous/rank', { body, retry: true }),

    experiments: {
      list: (query?: Partial<QueryOf<ExperimentsPath, 'get'>>) =>
        req<ResponseData<ExperimentsPath, 'get'>>('GET', '/api/nous/ab-testing/experiments', { query: query as Query }),
      get: (experimentId: string) =>
        req<ResponseData<ExperimentPath, 'get'>>('GET', `/api/nous/ab-testing/experiments/${enc(experimentId)}`),
      create: (body: RequestBody<ExperimentsPath, 'post'>) =>
        req<ResponseData<ExperimentsPath, 'post'>>('POST', '/api/nous/ab-testing/experiments', { body }),
      update: (experimentId: string, body: RequestBody<ExperimentPath, 'patch'>) =>
        req<ResponseData<ExperimentPath, 'patch'>>('PATCH', `/api/nous/ab-testing/experiments/${enc(experimentId)}`, { body }),
      /** start, pause, resume, stop or archive. */
      transition: (experimentId: string, action: LifecycleAction, body: Record<string, unknown> = {}) =>
        req<ResponseData<ExperimentPath, 'get'>>('POST', `/api/nous/ab-testing/experiments/${enc(experimentId)}/${action}`, { body }),
      conclude: (experimentId: string, body: RequestBody<'/api/nous/ab-testing/experiments/{experimentId}/conclude', 'post'>) =>
        req<ResponseData<'/api/nous/ab-testing/experiments/{experimentId}/conclude', 'post'>>(
          'POST',
          `/api/nous/ab-testing/experiments/${enc(experimentId)}/conclude`,
          { body },
        ),
    },

    models: {
      list: (query?: Partial<QueryOf<ModelsPath, 'get'>>) =>
        req<ResponseData<ModelsPath, 'get'>>('GET', '/api/nous/learn/models', { query: query as Query }),
      get: (modelId: string) => req<ResponseData<ModelPath, 'get'>>('GET', `/api/nous/learn/models/${enc(modelId)}`),
      create: (body: RequestBody<ModelsPath, 'post'>) => req<ResponseData<ModelsPath, 'post'>>('POST', '/api/nous/learn/models', { body }),
      train: (modelId: string, body: RequestBody<'/api/nous/learn/models/{modelId}/train', 'post'> = {}) =>
        req<ResponseData<'/api/nous/learn/models/{modelId}/train', 'post'>>('POST', `/api/nous/learn/models/${enc(modelId)}/train`, {
          body,
        }),
      rank: (modelId: string, body: RequestBody<'/api/nous/learn/models/{modelId}/rank', 'post'>) =>
        req<ResponseData<'/api/nous/learn/models/{modelId}/rank', 'post'>>('POST', `/api/nous/learn/models/${enc(modelId)}/rank`, {
          body,
          retry: true,
        }),
    },

    /** An experiment's statistics. */
    results: (experimentId: string, query?: Partial<QueryOf<ResultsPath, 'get'>>) =>
      req<ResponseData<ResultsPath, 'get'>>('GET', `/api/nous/ab-testing/experiments/${enc(experimentId)}/results`, {
        query: query as Query,
      }),

    /** Any other endpoint, in the envelope's terms (data on success, SearchloopError otherwise). */
    request: <T = unknown>(method: string, path: string, init?: { query?: Record<string, string>; body?: unknown; retry?: boolean }) =>
      req<T>(method, path, init),

    /** Stops the timer and the page listeners; call flush() first to send what is queued. */
    close(): void {
      queue.close();
      stopWatching();
    },
  };
}

export type SearchloopClient = ReturnType<typeof createClient>;
