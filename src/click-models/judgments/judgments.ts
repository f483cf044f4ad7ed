import type { ClickModel, ClickModelAlgorithm } from '../types.js';

export type Grade = 0 | 1 | 2 | 3 | 4;
export type Thresholds = readonly [number, number, number, number];

/**
 * `fixed`: grade = how many thresholds the relevance reaches (defaults per algorithm,
 * see `defaultThresholds`). `quantile`: thresholds are the 20/40/60/80th percentiles of
 * relevance over the judged pairs, so grades spread evenly whatever the model's scale.
 */
export type GradeMapping = { readonly method: 'fixed'; readonly thresholds?: Thresholds } | { readonly method: 'quantile' };

export interface JudgmentOptions {
  readonly mapping?: GradeMapping;
  /** Pairs seen fewer times are left out: too little evidence to grade. Default 10. */
  readonly minImpressions?: number;
}

export interface Judgment {
  readonly queryHash: string;
  readonly resultId: string;
  readonly grade: Grade;
  readonly relevance: number;
  readonly impressions: number;
  readonly clicks: number;
}

export interface JudgmentList {
  readonly algorithm: ClickModelAlgorithm;
  readonly mapping: { readonly method: 'fixed' | 'quantile'; readonly thresholds: Thresholds };
  /** Grouped by query (first-seen order), best grade first within a query. */
  readonly judgments: Judgment[];
}

/**
 * Defaults for fixed thresholds. Probability-valued relevance (α, α·σ, CTR) is cut at
 * 0.1 / 0.3 / 0.5 / 0.7. COEC is a ratio to the rank's average CTR, so it is cut around
 * 1: below half the expected clicks is 0, twice the expected clicks or more is 4.
 */
export function defaultThresholds(algorithm: ClickModelAlgorithm): Thresholds {
  return algorithm === 'coec' ? [0.5, 0.8, 1.25, 2] : [0.1, 0.3, 0.5, 0.7];
}

/** Linear-interpolation quantile (type 7) of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

function gradeOf(relevance: number, thresholds: Thresholds): Grade {
  let grade = 0;
  for (const t of thresholds) if (relevance >= t) grade += 1;
  return grade as Grade;
}

export function toJudgments(model: ClickModel, options: JudgmentOptions = {}): JudgmentList {
  const minImpressions = options.minImpressions ?? 10;
  const mapping = options.mapping ?? { method: 'fixed' };
  const eligible = model.estimates().filter((e) => e.impressions >= minImpressions);

  let thresholds: Thresholds;
  if (mapping.method === 'quantile' && eligible.length > 0) {
    const sorted = eligible.map((e) => e.relevance).sort((a, b) => a - b);
    thresholds = [quantile(sorted, 0.2), quantile(sorted, 0.4), quantile(sorted, 0.6), quantile(sorted, 0.8)];
  } else {
    thresholds = (mapping.method === 'fixed' ? mapping.thresholds : undefined) ?? defaultThresholds(model.algorithm);
  }

  const byQuery = new Map<string, Judgment[]>();
  for (const e of eligible) {
    let list = byQuery.get(e.queryHash);
    if (list === undefined) {
      list = [];
      byQuery.set(e.queryHash, list);
    }
    list.push({
      queryHash: e.queryHash,
      resultId: e.resultId,
      grade: gradeOf(e.relevance, thresholds),
      relevance: e.relevance,
      impressions: e.impressions,
      clicks: e.clicks,
    });
  }
  const judgments: Judgment[] = [];
  for (const list of byQuery.values()) {
    list.sort((a, b) => b.relevance - a.relevance);
    judgments.push(...list);
  }
  return { algorithm: model.algorithm, mapping: { method: mapping.method, thresholds }, judgments };
}

/**
 * Body of OpenSearch Search Relevance Workbench's judgment import
 * (`PUT _plugins/_search_relevance/judgments`, type IMPORT_JUDGMENT): ratings are
 * grouped per query text and each rating is a decimal string, as in the documented
 * example ("3.000"). The service does the HTTP call.
 */
export interface OpenSearchJudgmentImport {
  readonly name: string;
  readonly description: string;
  readonly type: 'IMPORT_JUDGMENT';
  readonly judgmentRatings: {
    readonly query: string;
    readonly ratings: { readonly docId: string; readonly rating: string }[];
  }[];
}

export interface OpenSearchExportOptions {
  readonly name: string;
  readonly description?: string;
  /** Maps our query hash to the query text OpenSearch matches on. Default: the hash. */
  readonly queryText?: (queryHash: string) => string;
}

export function toOpenSearchJudgments(list: JudgmentList, options: OpenSearchExportOptions): OpenSearchJudgmentImport {
  const queryText = options.queryText ?? ((hash: string) => hash);
  const groups = new Map<string, { docId: string; rating: string }[]>();
  for (const j of list.judgments) {
    let ratings = groups.get(j.queryHash);
    if (ratings === undefined) {
      ratings = [];
      groups.set(j.queryHash, ratings);
    }
    ratings.push({ docId: j.resultId, rating: j.grade.toFixed(3) });
  }
  return {
    name: options.name,
    description: options.description ?? `Implicit judgments from the ${list.algorithm} click model (${list.mapping.method} grades 0-4)`,
    type: 'IMPORT_JUDGMENT',
    judgmentRatings: [...groups].map(([hash, ratings]) => ({ query: queryText(hash), ratings })),
  };
}
