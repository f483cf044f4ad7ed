import { createRng, type SeededRng } from '../../random/index.js';

/** A document of one query's candidate set, with its hidden truth. */
export interface Doc {
  resultId: string;
  /** Hidden graded relevance 0…4: what users respond to, never sent to the service. */
  grade: number;
  /** What the engine and the client know: sent as customMetadata.features and to rank calls. */
  features: { textMatch: number; freshness: number; price: number };
}

export interface Query {
  queryHash: string;
  /** Share of searches that use this query (Zipf). */
  popularity: number;
  /** Candidates in the engine's own (imperfect) order: the control ranking. */
  engineOrder: Doc[];
  /**
   * The orders the engine's replicas actually serve: `engineOrder` first, then two whose scores
   * carry a little more noise (index refreshes, ties broken differently). A search is served one
   * of them (see ranking.ts), so the same result is logged at neighbouring positions: the natural
   * interventions the position-bias estimate harvests.
   */
  engineVariants: Doc[][];
}

export interface Catalogue {
  queries: Query[];
  /** Cumulative popularity, for drawing a query. */
  cumulative: number[];
}

export interface CatalogueOptions {
  seed: number;
  queries: number;
  docsPerQuery: number;
}

const ADJECTIVES = ['red', 'wireless', 'cheap', 'organic', 'vintage', 'waterproof', 'kids', 'leather', 'smart', 'mini', 'steel', 'linen'];
const NOUNS = ['running shoes', 'headphones', 'backpack', 'coffee beans', 'desk lamp', 'rain jacket', 'watch', 'sofa', 'tent', 'kettle'];
const GRADE_SHARES = [0.42, 0.26, 0.16, 0.1, 0.06];

function drawGrade(rng: SeededRng): number {
  let u = rng.uniform();
  for (let g = 0; g < GRADE_SHARES.length; g += 1) {
    u -= GRADE_SHARES[g]!;
    if (u < 0) return g;
  }
  return 0;
}

/** How much noisier a replica's scores are than the engine's (its scores' spread is about 1.2). */
const REPLICA_NOISE = 0.35;

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Queries with Zipf popularity, each with candidates of hidden graded relevance. The engine
 * orders them by a noisy score of the grade (its imperfection is what a learned ranker can fix);
 * the features a client would send carry part of the truth with their own noise, and two of
 * them none at all.
 */
export function buildCatalogue(options: CatalogueOptions): Catalogue {
  const rng = createRng(options.seed);
  // A second stream, so the variants leave the catalogue of a seed as it was before they existed.
  const replicaRng = createRng(options.seed ^ 0x5eed);
  const queries: Query[] = [];
  const names = new Set<string>();
  for (let q = 0; q < options.queries; q += 1) {
    let name = `${ADJECTIVES[q % ADJECTIVES.length]} ${NOUNS[Math.floor(q / ADJECTIVES.length) % NOUNS.length]}`;
    if (names.has(name)) name = `${name} ${Math.floor(q / (ADJECTIVES.length * NOUNS.length)) + 1}`;
    names.add(name);
    const docs = Array.from({ length: options.docsPerQuery }, (_, i) => {
      const grade = drawGrade(rng);
      const engineScore = 0.6 * grade + 1.2 * rng.normal();
      const doc: Doc = {
        resultId: `p${String(q).padStart(3, '0')}-${String(i).padStart(2, '0')}`,
        grade,
        features: { textMatch: round(0.5 * grade + rng.normal()), freshness: round(rng.uniform()), price: round(5 + 95 * rng.uniform()) },
      };
      return { doc, engineScore };
    });
    // Every query has something worth finding.
    if (!docs.some((d) => d.doc.grade >= 3)) docs[Math.floor(rng.uniform() * docs.length)]!.doc.grade = 3;
    docs.sort((a, b) => b.engineScore - a.engineScore);
    const engineOrder = docs.map((d) => d.doc);
    const replica = () =>
      docs
        .map((d) => ({ doc: d.doc, score: d.engineScore + REPLICA_NOISE * replicaRng.normal() }))
        .sort((a, b) => b.score - a.score)
        .map((d) => d.doc);
    queries.push({ queryHash: name, popularity: 1 / (q + 1), engineOrder, engineVariants: [engineOrder, replica(), replica()] });
  }
  const total = queries.reduce((s, q) => s + q.popularity, 0);
  let running = 0;
  const cumulative = queries.map((q) => {
    q.popularity /= total;
    running += q.popularity;
    return running;
  });
  return { queries, cumulative };
}

export function drawQuery(catalogue: Catalogue, u: number): Query {
  const i = catalogue.cumulative.findIndex((c) => u < c);
  return catalogue.queries[i < 0 ? catalogue.queries.length - 1 : i]!;
}
