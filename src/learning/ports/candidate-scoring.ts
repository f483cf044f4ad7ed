/**
 * What an offline evaluation needs of the registry, the aliases and serving (learning's own
 * sub-domains, which evaluations/ may not import): learning-services.ts fills it.
 */
export type RankableAnswer = { ok: true; activeVersion: number | null } | { ok: false; field: 'modelId' | 'version'; message: string };

/** The results of one query to score, as POST …/rank takes them. */
export interface ScoreInput {
  queryHash?: string;
  results: { resultId: string; position?: number; features?: Record<string, number> }[];
}

export interface CandidateScoring {
  /** The model exists, is a ranker, and the version (when given) exists. */
  checkRankable(modelId: string, version?: number): Promise<RankableAnswer>;
  /** undefined: no such alias; modelId null: cleared (the original order); version null: follows a model with no version yet. */
  aliasTarget(alias: string): Promise<{ modelId: string | null; version: number | null } | undefined>;
  /**
   * The feedback window a version learned from, and when its run had read it (the version's creation:
   * the window's end may lie ahead of that, for late-stamped events); null: not trained on feedback.
   */
  trainingWindow(modelId: string, version: number): Promise<{ start: number; end: number; readBy: number } | null>;
  /** Scores of `input.results` in the order given, with one version. */
  scoreVersion(modelId: string, version: number, input: ScoreInput): Promise<number[]>;
}

/** What one scoring call may hold (serving's RANK_MAX_RESULTS). */
export const SCORE_MAX_RESULTS = 1000;
