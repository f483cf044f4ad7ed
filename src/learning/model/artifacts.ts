import type { Model } from '../../ranker/index.js';

/** A stored ranker version: the tree model plus what serving needs to build its feature rows. */
export interface RankerArtifact {
  format: 'searchloop.ranker';
  version: 1;
  /** `import`: a model file trained elsewhere (POST …/versions/import); it scores request features by name, like `dataset`. */
  source: 'dataset' | 'feedback' | 'clicks' | 'import';
  model: Model;
  /** import: what the file was. */
  imported?: ImportedModelInfo;
  /** feedback- and clicks-trained: behavioural features per (queryHash, resultId) and per result, at training time. */
  behaviour?: BehaviourTable;
}

/** The facts of an imported ranker version (its view and its log line say them). */
export interface ImportedModelInfo {
  format: 'xgboost-json' | 'xgboost-dump' | 'lightgbm-text';
  trees: number;
  features: number;
  /** The objective as the file names it ("rank:ndcg", "lambdarank"). */
  objective: string;
  /** The file's own feature names, when featureNames renamed them. */
  sourceFeatureNames?: string[];
  note: string | null;
}

export const ENGAGEMENT_FEATURES = [
  'position',
  'deviceType',
  'searchType',
  'language',
  'category',
  'viewportWidth',
  'viewportHeight',
  'hour',
] as const;
export const CATEGORICAL_FEATURES = ['deviceType', 'searchType', 'language', 'category'] as const;
export type CategoricalFeature = (typeof CATEGORICAL_FEATURES)[number];

export interface EngagementArtifact {
  format: 'searchloop.engagement';
  version: 1;
  target: 'click' | 'satisfied_click';
  /** Category codes: the value's index in its list (most frequent first); unseen values are missing. */
  vocabulary: Record<CategoricalFeature, string[]>;
  model: Model;
}

/** What a feedback-trained ranker stores to build its behavioural feature rows at serving time. */
export interface BehaviourTable {
  names: string[];
  /** queryHash → resultId → values in `names` order (resultCtr filled from `results`). */
  pairs: Record<string, Record<string, (number | null)[]>>;
  /** Client features (`customMetadata.features`) seen in training, by name, latest value per pair. */
  clientFeatureNames: string[];
  clientFeatures: Record<string, Record<string, Record<string, number>>>;
}

/**
 * A rank above the last click of a click-only search whose result id nobody logged: the
 * cascade assumption says it was examined, so it stays in the session under this id (it
 * informs examination) and is left out of judgments, exports and ranking.
 */
export const UNKNOWN_RESULT_PREFIX = '\u0000rank:';
export const isUnknownResult = (id: string): boolean => id.startsWith(UNKNOWN_RESULT_PREFIX);
