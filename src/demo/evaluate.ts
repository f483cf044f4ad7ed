import type { ApiClient } from './api-client.js';
import { PAGE_SIZE, rankWithModel } from './ranking.js';
import type { Catalogue } from './world/catalogue.js';
import { ndcgAt } from './world/ndcg.js';

export interface NdcgReport {
  /** Mean NDCG@10 over the catalogue's queries, by the hidden grades. */
  engine: number;
  ranker: number;
  /** The same, weighted by how often each query is searched (what users meet). */
  engineWeighted: number;
  rankerWeighted: number;
  queries: number;
}

/** Scores the engine's order and the model's reranking of every query against the hidden truth. */
export async function evaluateRanker(api: ApiClient, catalogue: Catalogue, modelId: string): Promise<NdcgReport> {
  const report = { engine: 0, ranker: 0, engineWeighted: 0, rankerWeighted: 0, queries: catalogue.queries.length };
  for (const [i, query] of catalogue.queries.entries()) {
    const all = query.engineOrder.map((d) => d.grade);
    const engine = ndcgAt(all, all, PAGE_SIZE);
    const ranked = await rankWithModel(api, modelId, { queryId: `evaluate-${i}`, query, offsetMs: 0 });
    const ranker = ndcgAt(
      ranked.map((d) => d.grade),
      all,
      PAGE_SIZE,
    );
    report.engine += engine / report.queries;
    report.ranker += ranker / report.queries;
    report.engineWeighted += engine * query.popularity;
    report.rankerWeighted += ranker * query.popularity;
  }
  return report;
}
