/** What the rank bench sets up on a running server, over HTTP like any client: models, the alias, experiments. */
import { setTimeout as sleep } from 'node:timers/promises';
import { letorDataset } from './bodies.js';

const M = '/api/nous/learn/models';
const E = '/api/nous/ab-testing/experiments';

async function call(
  url: string,
  method: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ data: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as { data: Record<string, unknown> };
}

/** Creates a ranker, uploads the LETOR dataset and waits until the server's training queue has trained it. */
export async function trainRanker(base: string, modelId: string, numTrees: number, numLeaves: number): Promise<number> {
  await call(base + M, 'POST', {
    modelId,
    name: modelId,
    type: 'ranker',
    config: { trainingData: 'dataset', numTrees, numLeaves, learningRate: 0.1, minDataInLeaf: 5 },
  });
  await call(`${base}${M}/${modelId}/dataset`, 'POST', letorDataset(), 'text/plain');
  for (let i = 0; i < 1200; i += 1) {
    const model = (await call(`${base}${M}/${modelId}`, 'GET')).data as { status: string; error?: string; metrics?: { trees?: number } };
    if (model.status === 'ready') return model.metrics?.trees ?? numTrees;
    if (model.status === 'failed') throw new Error(`training ${modelId} failed: ${model.error}`);
    await sleep(250);
  }
  throw new Error(`training ${modelId} did not finish in 5 minutes`);
}

export const setProductionAlias = (base: string, modelId: string) => call(`${base}/api/nous/learn/aliases/production`, 'PUT', { modelId });

/** An A/B test whose arms both pin the 100-tree ranker `bench`: every request scores it and writes an exposure. */
export const AB_CONFIGURATION = {
  variants: [
    { id: 'a', model: { modelId: 'bench' } },
    { id: 'b', model: { modelId: 'bench' } },
  ],
};

/** A team draft of `bench2` (50 trees) and `bench` (100 trees): both score every request. */
export const DRAFT_CONFIGURATION = {
  type: 'interleaving',
  variants: [
    { id: 'small', model: { modelId: 'bench2' } },
    { id: 'large', model: { modelId: 'bench' } },
  ],
};

/** Creates and starts an experiment; answers its id. */
export async function startExperiment(base: string, name: string, configuration: Record<string, unknown>): Promise<string> {
  const id = (await call(base + E, 'POST', { name: `${name}-${Date.now()}`, configuration })).data.experimentId as string;
  await call(`${base}${E}/${id}/start`, 'POST');
  return id;
}

export const stopExperiment = (base: string, id: string) => call(`${base}${E}/${id}/stop`, 'POST');

/** One request, to check what a case serves before it is measured (e.g. `experiment` for an A/B arm). */
export async function servedBy(base: string, path: string, body: string): Promise<string> {
  const data = (await call(base + path, 'POST', body)).data as { served?: { source: string; method?: string } };
  return data.served ? `${data.served.source}${data.served.method ? ` (${data.served.method})` : ''}` : 'n/a';
}
