import { CATEGORICAL_FEATURES, ENGAGEMENT_FEATURES, type BehaviourTable, type CategoricalFeature } from './artifacts.js';

// How a stored version turns one result into a feature row: training builds its rows with these
// and serving scores with the same functions, so the two cannot drift apart.

/** Feature names of a feedback-trained ranker: behavioural first, then the client's. */
export function featureNamesOf(table: BehaviourTable): string[] {
  return [...table.names, ...table.clientFeatureNames];
}

/** One row for (queryHash, resultId): stored behaviour, then client features (request values win). */
export function behaviourRow(
  table: BehaviourTable,
  queryHash: string | undefined,
  resultId: string,
  sent?: Readonly<Record<string, number>>,
): Float32Array {
  const row = new Float32Array(table.names.length + table.clientFeatureNames.length).fill(Number.NaN);
  const stored = queryHash === undefined ? undefined : table.pairs[queryHash]?.[resultId];
  if (stored) stored.forEach((v, j) => (row[j] = v ?? Number.NaN));
  const storedClient = queryHash === undefined ? undefined : table.clientFeatures[queryHash]?.[resultId];
  table.clientFeatureNames.forEach((name, k) => {
    const v = sent?.[name] ?? storedClient?.[name];
    if (v !== undefined) row[table.names.length + k] = v;
  });
  return row;
}

/** One shown result with its context: what the predictor sees. */
export interface EngagementExample {
  position: number;
  deviceType: string | null;
  searchType: string | null;
  language: string | null;
  category: string | null;
  viewportWidth: number | null;
  viewportHeight: number | null;
  /** UTC hour 0–23 of the search. */
  hour: number | null;
}

/** Row-major features in ENGAGEMENT_FEATURES order; categories by their vocabulary index, unseen = NaN. */
export function encodeExamples(examples: readonly EngagementExample[], vocab: Record<CategoricalFeature, string[]>): Float32Array {
  const F = ENGAGEMENT_FEATURES.length;
  const index = Object.fromEntries(CATEGORICAL_FEATURES.map((f) => [f, new Map(vocab[f].map((v, i) => [v, i]))])) as Record<
    CategoricalFeature,
    Map<string, number>
  >;
  const out = new Float32Array(examples.length * F).fill(Number.NaN);
  examples.forEach((e, r) => {
    ENGAGEMENT_FEATURES.forEach((name, j) => {
      const v = e[name];
      if (v === null) return;
      out[r * F + j] = typeof v === 'number' ? v : (index[name as CategoricalFeature].get(v) ?? Number.NaN);
    });
  });
  return out;
}

/**
 * Parsed `features` by their JSON text. A client sends the same features with every impression of
 * a result, so a window repeats a few thousand texts millions of times: parsing each once took a
 * 1 000 000-search training window's behaviour table from 42 s to a few (issue 27). Bounded: when
 * full it starts over. The objects are frozen because every caller shares them.
 */
const PARSED = new Map<string, Readonly<Record<string, number>> | undefined>();
const PARSED_MAX = 100_000;

/** The numeric `features` a client logged in customMetadata (the item's extra JSON), or undefined. */
export function clientFeatures(extra: string | null): Readonly<Record<string, number>> | undefined {
  if (extra === null) return undefined;
  if (PARSED.has(extra)) return PARSED.get(extra);
  const parsed = parseFeatures(extra);
  if (PARSED.size >= PARSED_MAX) PARSED.clear();
  PARSED.set(extra, parsed);
  return parsed;
}

function parseFeatures(extra: string): Readonly<Record<string, number>> | undefined {
  try {
    const features = (JSON.parse(extra) as { features?: unknown }).features;
    if (features === null || typeof features !== 'object' || Array.isArray(features)) return undefined;
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(features)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    return Object.freeze(out);
  } catch {
    return undefined;
  }
}
