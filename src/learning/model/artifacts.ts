import type { Model } from '../../ranker/index.js';
import type { BehaviourTable } from '../training/runs/behaviour-features.js';

/** A stored ranker version: the tree model plus what serving needs to build its feature rows. */
export interface RankerArtifact {
  format: 'searchloop.ranker';
  version: 1;
  source: 'dataset' | 'feedback';
  model: Model;
  /** feedback-trained: behavioural features per (queryHash, resultId) and per result, at training time. */
  behaviour?: BehaviourTable;
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
