/**
 * Shared types of the click-model package. Everything here is plain data so that a
 * fitted model can cross a worker-thread boundary or be stored as JSON.
 *
 * Reference throughout: A. Chuklin, I. Markov, M. de Rijke, *Click Models for Web
 * Search* (Morgan & Claypool, 2015) — cited as "CMWS §x.y".
 */

/** One execution of a query: the ranking shown and which results were clicked. */
export interface SearchSession {
  readonly queryHash: string;
  /** Result ids in rank order, rank 1 first. */
  readonly resultIds: readonly string[];
  /** Same length as `resultIds`. */
  readonly clicks: readonly boolean[];
  readonly timestamp?: number;
  /** True when the impressions were reconstructed with the cascade assumption. */
  readonly impressionsInferred?: boolean;
}

export const CLICK_MODEL_ALGORITHMS = ['ctr', 'coec', 'pbm', 'cascade', 'ubm', 'dbn', 'sdbn'] as const;
export type ClickModelAlgorithm = (typeof CLICK_MODEL_ALGORITHMS)[number];

/** Beta(positive, negative) pseudo-counts added to every Bernoulli parameter estimate. */
export interface PseudoCounts {
  readonly positive: number;
  readonly negative: number;
}

/**
 * How COEC's expected clicks are computed. `best-rank` matches OpenSearch Search
 * Relevance's implicit judgments: impressions × CTR of the best (lowest) rank at which
 * the pair was seen. `per-impression` is the textbook form: Σ over impressions of the
 * CTR of the rank of that impression.
 */
export type CoecExpectation = 'best-rank' | 'per-impression';

export interface ClickModelConfig {
  readonly algorithm: ClickModelAlgorithm;
  /** Ranks deeper than this are ignored. Default 10. */
  readonly maxDepth?: number;
  /** EM iterations at most (pbm, ubm, dbn); EM stops earlier once no parameter moves by `tolerance`. Default 500. */
  readonly iterations?: number;
  /** EM stops once no parameter moves more than this. Default 1e-6. */
  readonly tolerance?: number;
  /** Pseudo-counts for attractiveness, satisfaction, CTR. Default {1, 1}. */
  readonly prior?: PseudoCounts;
  /** Pseudo-counts for examination and continuation parameters. Default {1, 1}. */
  readonly examinationPrior?: PseudoCounts;
  readonly coecExpectation?: CoecExpectation;
  /**
   * PBM/UBM: only pairs with at least this many impressions inform the examination
   * parameters (all pairs still get attractiveness). Default 20. See cell-em.ts.
   */
  readonly examinationMinImpressions?: number;
}

export type ResolvedConfig = Required<ClickModelConfig>;

export interface FitSummary {
  readonly sessions: number;
  readonly impressions: number;
  readonly clicks: number;
  /** Impressions that came from sessions flagged `impressionsInferred`. */
  readonly impressionsInferred: number;
  readonly pairs: number;
  /** EM iterations run; 0 for closed-form models. */
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * The stored form of a fitted model. Per-pair values are parallel arrays (one entry per
 * query-document pair) to keep the JSON compact for millions of pairs.
 */
export interface SerializedClickModel {
  readonly format: 'searchloop.click-model';
  readonly version: 1;
  readonly algorithm: ClickModelAlgorithm;
  readonly config: ResolvedConfig;
  readonly summary: FitSummary;
  readonly queries: readonly string[];
  readonly pairs: {
    /** Index into `queries`. */
    readonly query: readonly number[];
    readonly doc: readonly string[];
    readonly impressions: readonly number[];
    readonly clicks: readonly number[];
    /** The per-pair parameter used for prediction (α, smoothed CTR, smoothed COEC). */
    readonly attractiveness: readonly number[];
    /** σ for dbn/sdbn, otherwise null. */
    readonly satisfaction: readonly number[] | null;
    readonly relevance: readonly number[];
  };
  readonly ranks: {
    readonly impressions: readonly number[];
    readonly clicks: readonly number[];
    /** Examination summary per rank, index 0 = rank 1 (see each fitter for its meaning). */
    readonly examination: readonly number[];
  };
  readonly params: ModelParams;
  /** Values used for pairs not seen in training. */
  readonly defaults: { readonly attractiveness: number; readonly satisfaction: number };
}

export interface ModelParams {
  /** PBM γ_r or UBM-independent parts; index 0 = rank 1. */
  readonly gamma?: readonly number[];
  /** UBM γ_{r,r'}: [rank-1][r'] with r' = rank of the previous click, 0 = none. */
  readonly gammaByPrevClick?: readonly (readonly number[])[];
  /** DBN continuation λ (CMWS §3.8 calls it γ); 1 for SDBN. */
  readonly continuation?: number;
  /** Raw per-rank CTR (ctr, coec). */
  readonly rankCtr?: readonly number[];
}

export interface PairEstimate {
  readonly queryHash: string;
  readonly resultId: string;
  readonly relevance: number;
  readonly attractiveness: number;
  readonly satisfaction: number | null;
  readonly impressions: number;
  readonly clicks: number;
}

export interface ClickProbabilities {
  /** P(C_r = 1 | C_<r) — clicks above are observed. Length = ranks considered. */
  readonly conditional: readonly number[];
  /** P(C_r = 1) — nothing observed (CMWS §3.10, "full" click probability). */
  readonly marginal: readonly number[];
}

export interface ClickModel {
  readonly algorithm: ClickModelAlgorithm;
  readonly maxDepth: number;
  readonly summary: FitSummary;
  /** Examination per rank, index 0 = rank 1. */
  readonly examination: readonly number[];
  /** Undefined when the pair was never seen in training. */
  estimate(queryHash: string, resultId: string): PairEstimate | undefined;
  /** All pairs, in training order. */
  estimates(): PairEstimate[];
  clickProbabilities(session: SearchSession): ClickProbabilities;
  toJSON(): SerializedClickModel;
}
