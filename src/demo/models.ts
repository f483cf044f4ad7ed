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
  try {
    await api.post(`/api/nous/learn/models/${encodeURIComponent(model.modelId)}/train`, { force: true }, [409]);
  } catch (error) {
    // A run already queued or running (the schedule's own) is as good.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
  return waitForRun(api, model.modelId, since, timeoutMs);
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

/** A LambdaMART ranker trained from the feedback, its pairs labelled by the `default` click model. */
export async function trainRanker(api: ApiClient, seed: number, timeoutMs = 180_000): Promise<ModelView> {
  const existing = await getModel(api, RANKER_ID);
  if (existing) return trainAndWait(api, existing, timeoutMs);
  const created = await api.post<ModelView>('/api/nous/learn/models', {
    modelId: RANKER_ID,
    name: 'Demo learned ranker',
    type: 'ranker',
    config: { algorithm: 'lambdamart', trainingData: 'feedback', clickModel: 'default', seed, minImpressions: 5 },
  });
  return waitForRun(api, RANKER_ID, created.lastTraining?.at, timeoutMs);
}
