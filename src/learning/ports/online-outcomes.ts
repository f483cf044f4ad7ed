/**
 * What the track record needs of the experiments module (issue 26 §3), filled in by the container
 * from experiments' services: learning never imports experiments' files.
 */

/** One online test of a model-backed variant against its experiment's control. */
export interface OnlineOutcome {
  experimentId: string;
  experimentName: string;
  experimentStatus: string;
  kind: 'ab' | 'interleaving';
  /** When the experiment started (epoch ms). */
  startedAt: number;
  variantId: string;
  controlVariantId: string;
  /** The ranker the variant served in the phase read. */
  modelId: string;
  version: number;
  /** ab: each analysed metric's relative lift vs control with its interval (metrics without one are left out). */
  lifts: { metric: string; estimate: number; interval: [number, number] }[];
  /** interleaving: share of the decided queries the variant won against the control, with its interval. */
  share: { estimate: number; interval: [number, number] } | null;
}

export interface OnlineOutcomes {
  /** Every started experiment's model-backed non-control variants, with their results so far. */
  modelBackedOutcomes(): Promise<OnlineOutcome[]>;
}

/** Until the container wires experiments in (unit tests): no online results. */
export const NO_ONLINE_OUTCOMES: OnlineOutcomes = { modelBackedOutcomes: async () => [] };
