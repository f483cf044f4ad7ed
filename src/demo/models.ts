import { ApiError, type ApiClient } from './api-client.js';

export interface ModelView {
  modelId: string;
  type: string;
  status: string;
  activeVersion: number | null;
  error: string | null;
  metrics: Record<string, unknown>;
  lastTraining: { at: string; version: number | null; outcome: string; message: string | null } | null;
}

export const RANKER_ID = 'demo-ranker';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function getModel(api: ApiClient, modelId: string): Promise<ModelView | undefined> {
  try {
    return await api.get<ModelView>(`/api/nous/learn/models/${encodeURIComponent(modelId)}`, [404]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** Waits until a run that ended after `since` is recorded: the model with a version, or why not. */
async function waitForRun(api: ApiClient, modelId: string, since: string | undefined, timeoutMs: number): Promise<ModelView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const model = await getModel(api, modelId);
    const ran = model?.lastTraining && model.lastTraining.at !== since;
    if (model && ran && (model.status === 'ready' || model.status === 'failed')) return model;
    if (Date.now() > deadline) throw new Error(`model ${modelId} did not finish training within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** Queues a run (force: the new version replaces the active one) and waits for it. */
async function trainAndWait(api: ApiClient, model: ModelView, timeoutMs: number): Promise<ModelView> {
  const since = model.lastTraining?.at;
  await queueRun(api, model.modelId);
  return waitForRun(api, model.modelId, since, timeoutMs);
}

/** POST …/train with force (the new version replaces the active one). */
async function queueRun(api: ApiClient, modelId: string): Promise<void> {
  try {
    await api.post(`/api/nous/learn/models/${encodeURIComponent(modelId)}/train`, { force: true }, [409]);
  } catch (error) {
    // A run already queued or running (the schedule's own) is as good.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
}

/**
 * The `default` click model: the service registers it on its first start (a PBM retrained daily);
 * the demo trains it now on the feedback it has sent. Registers it itself if the service has not yet.
 */
export async function trainDefaultClickModel(api: ApiClient, timeoutMs = 120_000): Promise<ModelView> {
  let model = await getModel(api, 'default');
  for (let i = 0; !model && i < 20; i += 1) {
    await sleep(500);
    model = await getModel(api, 'default');
  }
  if (!model) {
    try {
      model = await api.post<ModelView>(
        '/api/nous/learn/models',
        {
          modelId: 'default',
          name: 'default',
          type: 'click_model',
          config: { algorithm: 'pbm', retrainEvery: '24h', window: '30d' },
        },
        [409],
      );
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      model = (await getModel(api, 'default'))!;
    }
  }
  return trainAndWait(api, model, timeoutMs);
}

/**
 * The clicks ranker's debiasing (`config.debiasing` of `trainingData: "clicks"`): one constant, so
 * the mode the benchmark (`npm run bench:unbiased-ltr`) finds best is changed in one place.
 */
export const CLICKS_DEBIASING = 'unbiased-lambdamart';
export const CLICKS_RANKER_ID = 'demo-ranker-clicks';

/** The demo's two learned rankers: registration bodies by model id. */
const RANKERS: Record<string, (seed: number) => { name: string; config: Record<string, unknown> }> = {
  // LambdaMART on the feedback, its pairs labelled by the `default` click model.
  [RANKER_ID]: (seed) => ({
    name: 'Demo learned ranker',
    config: { algorithm: 'lambdamart', trainingData: 'feedback', clickModel: 'default', seed, minImpressions: 5 },
  }),
  // LambdaMART on the clicks themselves, position bias removed by CLICKS_DEBIASING: no click model between.
  [CLICKS_RANKER_ID]: (seed) => ({
    name: 'Demo ranker learned from clicks',
    config: { algorithm: 'lambdamart', trainingData: 'clicks', debiasing: CLICKS_DEBIASING, seed },
  }),
};

/** A run queued for a model: what to wait for (a run recorded after `since`). */
export interface QueuedRun {
  modelId: string;
  since: string | undefined;
}

/**
 * Registers one of the demo's rankers (the service queues its first run with it) or, when an
 * earlier demo run registered it, queues a retrain on all the feedback. Returns without waiting,
 * so two rankers can be queued back to back and learn from nearly the same window.
 */
export async function queueRanker(api: ApiClient, modelId: string, seed: number): Promise<QueuedRun> {
  const body = RANKERS[modelId];
  if (!body) throw new Error(`not one of the demo's rankers: ${modelId}`);
  const existing = await getModel(api, modelId);
  if (existing) {
    await queueRun(api, modelId);
    return { modelId, since: existing.lastTraining?.at };
  }
  const created = await api.post<ModelView>('/api/nous/learn/models', { modelId, type: 'ranker', ...body(seed) });
  return { modelId, since: created.lastTraining?.at };
}

/** Waits for a queued run: the model with its new version, or why there is none. */
export function waitForRanker(api: ApiClient, run: QueuedRun, timeoutMs = 180_000): Promise<ModelView> {
  return waitForRun(api, run.modelId, run.since, timeoutMs);
}

/** The feedback-trained ranker `demo-ranker`: queued and waited for. */
export async function trainRanker(api: ApiClient, seed: number, timeoutMs = 180_000): Promise<ModelView> {
  return waitForRanker(api, await queueRanker(api, RANKER_ID, seed), timeoutMs);
}
