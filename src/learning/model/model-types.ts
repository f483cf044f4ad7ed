/** The kinds of model the registry trains, and the states a model moves through (docs/api/learning-and-aliases.md, "Models"). */
export const MODEL_TYPES = ['click_model', 'ranker', 'engagement_predictor'] as const;
export const MODEL_STATUSES = ['pending', 'training', 'ready', 'failed', 'archived'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];
export type ModelStatus = (typeof MODEL_STATUSES)[number];

/** A registered model: its row in `models`. */
export interface ModelRecord {
  id: string;
  name: string;
  type: ModelType;
  status: ModelStatus;
  config: Record<string, unknown>;
  metrics: Record<string, unknown>;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}
