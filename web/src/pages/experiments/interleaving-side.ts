// No imports: the browser tests compute what the page shows with these same functions.

/** The fields of an interleaving pair (results.interleaving.pairs) that depend on whose side it is read from. */
export interface Pair {
  variantId: string;
  opponentVariantId: string;
  wins: number;
  losses: number;
  ties: number;
  preference: number | null;
  ci: number[] | null;
  share: number | null;
  shareCi: number[] | null;
  significant: boolean;
  winner: string | null;
  pValue: number | null;
  adjustedPValue: number | null;
}

/**
 * The rankers' reading order: every other ranker before the control (configuration.controlVariantId,
 * else the first variant), later variants before earlier ones. A pair reads from the side of the
 * ranker that comes first here: the treatment's, so a learned ranker that wins against the engine
 * shows as better, not as the engine's loss.
 */
export function readingOrder(experiment: { variants: { id: string }[]; configuration: { controlVariantId?: string | null } }): string[] {
  const control = experiment.configuration.controlVariantId ?? experiment.variants[0]?.id;
  const others = experiment.variants.map((v) => v.id).filter((id) => id !== control);
  return [...others.reverse(), ...(control ? [control] : [])];
}

/** A pair as the API computed it (from variantId's side), turned to the side of the ranker read first. */
export function fromTreatmentSide<P extends Pair>(p: P, order: string[]): P {
  const rank = (id: string) => (order.indexOf(id) === -1 ? order.length : order.indexOf(id));
  if (rank(p.variantId) <= rank(p.opponentVariantId)) return p;
  const flip = (ci: number[] | null, at: (v: number) => number) => (ci ? [at(ci[1]!), at(ci[0]!)] : null);
  return {
    ...p,
    variantId: p.opponentVariantId,
    opponentVariantId: p.variantId,
    wins: p.losses,
    losses: p.wins,
    preference: p.preference === null ? null : -p.preference,
    ci: flip(p.ci, (v) => -v),
    share: p.share === null ? null : 1 - p.share,
    shareCi: flip(p.shareCi, (v) => 1 - v),
  };
}
