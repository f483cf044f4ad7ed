import type { ErrorDetail } from '../../common/errors.js';

/**
 * What experiments need from the learning module, as a port the container fills: experiments never
 * import learning's files. Variants name models; `rank` serves them; aliases point at versions.
 */
/** The alias that serves units outside any ranking experiment. */
export const PRODUCTION_ALIAS = 'production';

export type RankableCheck = { ok: true; activeVersion: number | null } | { ok: false; field: 'modelId' | 'version'; message: string };

export interface RankInput {
  queryHash?: string;
  results: { resultId: string; features?: Record<string, number> }[];
  context?: Record<string, unknown>;
}

/** Scores of the results in the order given (higher ranks first). */
export interface RankScores {
  scores: number[];
}

/** Where an alias points, resolved to the version it serves now. */
export interface ResolvedAlias {
  alias: string;
  modelId: string;
  version: number;
}

/** A move of an alias recorded with a conclusion: one transaction with the experiment's change. */
export interface AliasMove {
  alias: string;
  modelId: string;
  version: number;
  actor: string;
  reason: string;
  experimentId: string;
  at: number;
}

export interface ModelCatalog {
  /** Whether the model may back a variant (it exists and is a ranker; the version, when given, exists). */
  resolveRankable(modelId: string, version?: number): Promise<RankableCheck>;
  /** Scores with one pinned version. */
  score(modelId: string, version: number, input: RankInput): Promise<RankScores>;
  /** The alias's current target, or null when it is not set (or points at a model without a version). */
  resolveAlias(alias: string): Promise<ResolvedAlias | null>;
  /** Where the alias points now, unresolved (version null: follows the active version); null when unset. */
  aliasTarget(alias: string): Promise<{ modelId: string; version: number | null } | null>;
}

/** Used when no learning module is wired (unit tests): no model exists. */
export const NO_MODELS: ModelCatalog = {
  resolveRankable: async (modelId) => ({ ok: false, field: 'modelId', message: `model ${modelId} not found` }),
  score: async (modelId) => {
    throw new Error(`model ${modelId} not available`);
  },
  resolveAlias: async () => null,
  aliasTarget: async () => null,
};

/** Every model-backed variant must name an existing ranker (and an existing version when it fixes one). */
export async function checkVariantModels(
  catalog: Pick<ModelCatalog, 'resolveRankable'>,
  variants: readonly { model?: { modelId: string; version?: number } }[],
  problems: ErrorDetail[],
): Promise<void> {
  for (const [i, v] of variants.entries()) {
    if (!v.model) continue;
    const check = await catalog.resolveRankable(v.model.modelId, v.model.version);
    if (!check.ok) problems.push({ path: `/configuration/variants/${i}/model/${check.field}`, message: check.message, in: 'body' });
  }
}
