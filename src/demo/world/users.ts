import type { SeededRng } from '../../random/index.js';
import type { Doc } from './catalogue.js';

/**
 * The dynamic Bayesian network click model (Chapelle & Zhang, WWW 2009): users read from the top;
 * at each examined result they click with its attractiveness, a click satisfies with its
 * satisfaction, a satisfied user stops, any other goes on with probability γ. Position bias comes
 * from the reading order alone. Parameters are per hidden grade.
 */
export const DBN = {
  attractiveness: [0.04, 0.12, 0.3, 0.55, 0.8],
  satisfaction: [0.05, 0.15, 0.35, 0.6, 0.85],
  gamma: 0.85,
};

export interface SimulatedClick {
  position: number;
  doc: Doc;
  timeToClickMs: number;
  dwellMs: number;
  satisfied: boolean;
  /** Stars 1–5, when the user rated the result. */
  rating?: number;
  converted: boolean;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export function simulateSearch(shown: readonly Doc[], rng: SeededRng): SimulatedClick[] {
  const clicks: SimulatedClick[] = [];
  let elapsed = 0;
  for (let i = 0; i < shown.length; i += 1) {
    const doc = shown[i]!;
    elapsed += 800 + 1200 * rng.uniform();
    if (rng.uniform() < DBN.attractiveness[doc.grade]!) {
      const satisfied = rng.uniform() < DBN.satisfaction[doc.grade]!;
      const dwellMs = Math.round(satisfied ? 30_000 + 120_000 * rng.uniform() : 2_000 + 20_000 * rng.uniform());
      const rated = rng.uniform() < 0.1;
      const converted = satisfied && doc.grade >= 3 && rng.uniform() < (doc.grade === 4 ? 0.3 : 0.15);
      clicks.push({
        position: i + 1,
        doc,
        timeToClickMs: Math.round(elapsed),
        dwellMs,
        satisfied,
        ...(rated ? { rating: clamp(Math.round(doc.grade + 1 + 0.6 * rng.normal()), 1, 5) } : {}),
        converted,
      });
      elapsed += dwellMs;
      if (satisfied) break;
    }
    if (rng.uniform() >= DBN.gamma) break;
  }
  return clicks;
}
