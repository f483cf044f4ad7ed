/**
 * Simulated searchers. A click model in the dynamic-Bayesian-network family (Chapelle & Zhang, WWW
 * 2009) scans the top 10 from the first position down: a result attracts a click with a probability
 * set by its grade, a click satisfies (and ends the search) with a probability set by its grade, and
 * without satisfaction the user goes on to the next position with probability γ — position bias
 * comes from this cascade of examinations. The grade parameters are the "perfect", "navigational"
 * and "informational" users of Hofmann, Whiteson & de Rijke (ACM TOIS 2013), the usual choice in
 * interleaving simulations on LETOR data.
 */
import { createRng, type SeededRng as Rng } from '../../src/random/index.js';

export interface ClickModel {
  readonly name: string;
  /** P(click | examined, grade 0–4). */
  readonly attractiveness: readonly number[];
  /** P(satisfied, stop | clicked, grade). */
  readonly satisfaction: readonly number[];
  /** γ: P(examine the next position | not satisfied). 1 = a cascade without abandonment. */
  readonly continuation: number;
}

const PERFECT: ClickModel = { name: 'perfect', attractiveness: [0, 0.2, 0.4, 0.8, 1], satisfaction: [0, 0, 0, 0, 0], continuation: 1 };
const NAVIGATIONAL: ClickModel = {
  name: 'navigational',
  attractiveness: [0.05, 0.3, 0.5, 0.7, 0.95],
  satisfaction: [0.2, 0.3, 0.5, 0.7, 0.9],
  continuation: 1,
};
const INFORMATIONAL: ClickModel = {
  name: 'informational',
  attractiveness: [0.4, 0.6, 0.7, 0.8, 0.9],
  satisfaction: [0.1, 0.2, 0.3, 0.4, 0.5],
  continuation: 1,
};

/** Who searches: each unit (session) draws one click model and keeps it for all its searches. */
export interface Population {
  readonly name: string;
  readonly models: readonly ClickModel[];
}

export const POPULATIONS: Readonly<Record<string, Population>> = {
  dbn: { name: 'navigational DBN users (γ = 0.9), all alike', models: [{ ...NAVIGATIONAL, name: 'navigational DBN', continuation: 0.9 }] },
  cascade: { name: 'navigational cascade users, all alike', models: [NAVIGATIONAL] },
  mixed: {
    name: 'a mix of perfect, navigational and informational cascade users (one type per unit)',
    models: [PERFECT, NAVIGATIONAL, INFORMATIONAL],
  },
};

/** The click model of the next unit. */
export function drawUser(rng: Rng, population: Population): ClickModel {
  const models = population.models;
  return models.length === 1 ? models[0]! : models[Math.floor(rng.uniform() * models.length)]!;
}

export const SHOWN = 10;

/** Positions (0-based) the user clicks on a list whose grades in shown order are `labels`. */
export function clickPositions(rng: Rng, model: ClickModel, labels: ArrayLike<number>, out: number[]): number[] {
  out.length = 0;
  const shown = Math.min(SHOWN, labels.length);
  for (let i = 0; i < shown; i += 1) {
    const grade = labels[i] as number;
    if (rng.uniform() < (model.attractiveness[grade] ?? 0)) {
      out.push(i);
      if (rng.uniform() < (model.satisfaction[grade] ?? 0)) break;
    }
    if (rng.uniform() >= model.continuation) break;
  }
  return out;
}

/** Searches per unit (session): 1 + Poisson(1.5), mean 2.5. */
export function searchesPerUnit(rng: Rng): number {
  return 1 + rng.poisson(1.5);
}

export { createRng, type Rng };
