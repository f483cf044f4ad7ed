import { ApiError, type ApiClient } from './api-client.js';

/**
 * A deliberately worse candidate: "cheapest first", a plausible business rule that ignores
 * relevance. It is brought in as a model trained elsewhere (a LightGBM text file built here), so
 * the demo also walks the import path, and predicted offline beside the learned ranker.
 */
export const WORSE_RANKER_ID = 'demo-cheapest-first';

/** One evaluation as the demo reads it back. */
export interface OfflinePrediction {
  modelId: string;
  version: number | null;
  evaluationId: string;
  status: string;
  searches: number;
  summary: string;
  /** What the service says to know before trusting the numbers. */
  warnings: string[];
  /** The predicted relative MRR lift against what served, with its 95 % interval. */
  mrr: { estimate: number; interval: [number, number] } | null;
}

interface EvaluationView {
  evaluationId: string;
  status: 'running' | 'done' | 'failed';
  error?: string;
  candidate: { kind: string; version?: number };
  searches?: number;
  summary?: string;
  warnings?: string[];
  metrics?: { metric: string; relativeDifference: { estimate: number; interval: [number, number] } }[];
}

/** Price steps 10, 20, … 90: the cheaper the result, the higher it scores. */
const PRICE_STEPS = [10, 20, 30, 40, 50, 60, 70, 80, 90];

/** A one-tree LightGBM text model that scores `price` alone (LightGBM's own `save_model` layout). */
export function cheapestFirstModel(): string {
  const internal = PRICE_STEPS.length;
  const leaves = internal + 1;
  // Node i: price ≤ step i → leaf i, else node i + 1; the last node's right child is the last leaf.
  const left = PRICE_STEPS.map((_, i) => -(i + 1));
  const right = PRICE_STEPS.map((_, i) => (i + 1 < internal ? i + 1 : -(internal + 1)));
  const leafValues = Array.from({ length: leaves }, (_, i) => leaves - i);
  return [
    'tree',
    'version=v4',
    'num_class=1',
    'num_tree_per_iteration=1',
    'label_index=0',
    'max_feature_idx=0',
    'objective=lambdarank',
    'feature_names=price',
    'feature_infos=[5:100]',
    '',
    'Tree=0',
    `num_leaves=${leaves}`,
    'num_cat=0',
    `split_feature=${PRICE_STEPS.map(() => 0).join(' ')}`,
    `split_gain=${PRICE_STEPS.map(() => 1).join(' ')}`,
    `threshold=${PRICE_STEPS.join(' ')}`,
    `decision_type=${PRICE_STEPS.map(() => 2).join(' ')}`,
    `left_child=${left.join(' ')}`,
    `right_child=${right.join(' ')}`,
    `leaf_value=${leafValues.join(' ')}`,
    'is_linear=0',
    'shrinkage=1',
    '',
    'end of trees',
    '',
  ].join('\n');
}

/** Registers the worse candidate and imports its one version, unless an earlier run did. */
export async function importWorseRanker(api: ApiClient): Promise<void> {
  try {
    await api.post(
      '/api/nous/learn/models',
      {
        modelId: WORSE_RANKER_ID,
        name: 'Cheapest first (a deliberately worse candidate)',
        type: 'ranker',
        config: { trainingData: 'dataset' },
      },
      [409],
    );
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
  const model = await api.get<{ activeVersion: number | null }>(`/api/nous/learn/models/${WORSE_RANKER_ID}`);
  if (model.activeVersion !== null) return;
  await api.post(`/api/nous/learn/models/${WORSE_RANKER_ID}/versions/import`, {
    format: 'lightgbm-text',
    model: cheapestFirstModel(),
    activate: true,
    note: 'the demo: cheapest first, relevance ignored',
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Predicts each model's effect from the feedback logged so far (its active version against what
 * served), waiting for evaluations the service runs in the background.
 */
export async function predictOffline(
  api: ApiClient,
  modelIds: readonly string[],
  window: { from: number; to: number },
  timeoutMs = 120_000,
): Promise<OfflinePrediction[]> {
  const predictions: OfflinePrediction[] = [];
  for (const modelId of modelIds) {
    let view = await api.post<EvaluationView>('/api/nous/learn/evaluations', {
      name: `demo: ${modelId} before its online test`,
      candidate: { modelId },
      from: window.from,
      to: window.to,
      metrics: ['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate'],
    });
    const deadline = Date.now() + timeoutMs;
    while (view.status === 'running' && Date.now() < deadline) {
      await sleep(500);
      view = await api.get<EvaluationView>(`/api/nous/learn/evaluations/${view.evaluationId}`);
    }
    const mrr = view.metrics?.find((m) => m.metric === 'mrr')?.relativeDifference ?? null;
    predictions.push({
      modelId,
      version: view.candidate.version ?? null,
      evaluationId: view.evaluationId,
      status: view.status,
      searches: view.searches ?? 0,
      summary: view.status === 'done' ? (view.summary ?? '') : view.status === 'failed' ? `failed: ${view.error ?? ''}` : 'still running',
      warnings: view.warnings ?? [],
      mrr,
    });
  }
  return predictions;
}

/** The lines the demo prints about its predictions. */
export function formatPredictions(predictions: readonly OfflinePrediction[]): string[] {
  if (predictions.length === 0) return [];
  const lines = [`Predicted offline, before any user saw them (over ${predictions[0]!.searches.toLocaleString('en-US')} logged searches):`];
  for (const p of predictions) {
    lines.push(`  ${p.modelId}${p.version === null ? '' : ` v${p.version}`}: ${p.summary}`);
    for (const warning of p.warnings) lines.push(`    ⚠ ${warning}`);
  }
  return lines;
}
