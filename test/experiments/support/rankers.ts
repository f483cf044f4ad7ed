import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { getJson, postJson, request } from '../../support/http.js';
import type { TestApp } from '../../support/test-app.js';

/** One query of the LightGBM lambdarank sample: its documents' graded labels and sparse features. */
export interface LetorQuery {
  qid: number;
  docs: { resultId: string; label: number; features: Record<string, number> }[];
}

/** The sample (test/fixtures/ltr) split into its queries, with qid added as the upload format wants. */
export function lambdarankQueries(): LetorQuery[] {
  const dir = new URL('../../fixtures/ltr/', import.meta.url);
  const rows = readFileSync(new URL('rank.train', dir), 'utf8').trim().split('\n');
  const sizes = readFileSync(new URL('rank.train.query', dir), 'utf8').trim().split('\n').map(Number);
  const queries: LetorQuery[] = [];
  let row = 0;
  sizes.forEach((size, q) => {
    const docs = rows.slice(row, row + size).map((line, d) => {
      const [label, ...pairs] = line.trim().split(/\s+/);
      const features = Object.fromEntries(pairs.map((p) => p.split(':')).map(([k, v]) => [k as string, Number(v)]));
      return { resultId: `q${q + 1}-d${d}`, label: Number(label), features };
    });
    queries.push({ qid: q + 1, docs });
    row += size;
  });
  return queries;
}

export function toLetor(queries: LetorQuery[]): string {
  const lines = queries.flatMap((q) =>
    q.docs.map(
      (d) =>
        `${d.label} qid:${q.qid} ${Object.entries(d.features)
          .map(([k, v]) => `${k}:${v}`)
          .join(' ')}`,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** Registers a dataset ranker, uploads the file, trains it, and returns its active version. */
export async function trainRanker(t: TestApp, modelId: string, letor: string, config: Record<string, unknown>): Promise<number> {
  const created = await postJson(t.app, '/api/nous/learn/models', {
    modelId,
    name: modelId,
    type: 'ranker',
    config: { trainingData: 'dataset', seed: 7, ...config },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
  const upload = await request(t.app, {
    method: 'POST',
    url: `/api/nous/learn/models/${modelId}/dataset`,
    payload: letor,
    headers: { 'content-type': 'text/plain' },
  });
  expect(upload.statusCode, JSON.stringify(upload.body)).toBe(201);
  await t.container.learning.services.trainingService.runUntilIdle();
  const model = (await getJson(t.app, `/api/nous/learn/models/${modelId}`)).body.data;
  expect(model.status, model.error).toBe('ready');
  return model.activeVersion as number;
}
