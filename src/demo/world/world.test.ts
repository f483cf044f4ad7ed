import { describe, expect, it } from 'vitest';
import { createRng } from '../../random/index.js';
import { buildCatalogue } from './catalogue.js';
import { ndcgAt } from './ndcg.js';
import { firstPage } from '../ranking.js';
import { planSession, searchFeedback } from './session.js';
import { simulatedClock } from './sim-clock.js';
import { DBN, simulateSearch } from './users.js';

const catalogue = buildCatalogue({ seed: 7, queries: 40, docsPerQuery: 20 });

describe('the demo world', () => {
  it('is reproducible: one seed, one catalogue and the same users', () => {
    expect(buildCatalogue({ seed: 7, queries: 40, docsPerQuery: 20 })).toEqual(catalogue);
    expect(buildCatalogue({ seed: 8, queries: 40, docsPerQuery: 20 })).not.toEqual(catalogue);
    const a = planSession(catalogue, 7, 123, 'demo');
    const b = planSession(catalogue, 7, 123, 'demo');
    const shown = a.searches[0]!.query.engineOrder.slice(0, 10);
    expect(simulateSearch(shown, a.rng)).toEqual(simulateSearch(shown, b.rng));
    expect(a.searches.map((s) => s.query.queryHash)).toEqual(b.searches.map((s) => s.query.queryHash));
  });

  it('gives the engine an imperfect order that a perfect one beats', () => {
    let engine = 0;
    for (const q of catalogue.queries) {
      const grades = q.engineOrder.map((d) => d.grade);
      engine += ndcgAt(grades, grades) / catalogue.queries.length;
      expect(Math.max(...grades)).toBeGreaterThanOrEqual(3);
    }
    expect(engine).toBeGreaterThan(0.5);
    expect(engine).toBeLessThan(0.85);
    expect(catalogue.cumulative.at(-1)).toBeCloseTo(1, 12);
  });

  it('serves three replica orders that move results to neighbouring positions, the same one for the same search', () => {
    const session = planSession(catalogue, 7, 5, 'demo');
    const search = session.searches[0]!;
    expect(firstPage(search)).toEqual(firstPage({ ...search }));
    let moved = 0;
    let shifts = 0;
    for (const q of catalogue.queries) {
      expect(q.engineVariants[0]).toBe(q.engineOrder);
      const base = new Map(q.engineOrder.map((d, i) => [d.resultId, i]));
      for (const variant of q.engineVariants.slice(1)) {
        variant.slice(0, 10).forEach((d, i) => {
          const shift = Math.abs(base.get(d.resultId)! - i);
          if (shift > 0) moved += 1;
          shifts += shift;
        });
      }
    }
    const shown = catalogue.queries.length * 2 * 10;
    // Enough results move for the position bias to be harvested, and they move a little.
    expect(moved / shown).toBeGreaterThan(0.3);
    expect(shifts / Math.max(1, moved)).toBeLessThan(2.5);
    // Searches of one query are spread over the replicas.
    const pages = Array.from({ length: 60 }, (_, i) => firstPage({ ...search, queryId: `q-${i}` }));
    const orders = new Set(pages.map((page) => page.map((d) => d.resultId).join()));
    expect(orders.size).toBe(
      new Set(
        search.query.engineVariants.map((v) =>
          v
            .slice(0, 10)
            .map((d) => d.resultId)
            .join(),
        ),
      ).size,
    );
  });

  it('clicks with position bias: the same relevance is clicked less further down (DBN)', () => {
    const rng = createRng(11);
    const doc = (grade: number, i: number) => ({ resultId: `d${i}`, grade, features: { textMatch: 0, freshness: 0, price: 0 } });
    const page = Array.from({ length: 10 }, (_, i) => doc(1, i));
    const clicksAt = new Array(10).fill(0);
    const n = 20_000;
    for (let s = 0; s < n; s += 1) for (const c of simulateSearch(page, rng)) clicksAt[c.position - 1] += 1;
    // Examination at rank r of a page of non-satisfying results is about γ^(r−1).
    expect(clicksAt[0] / n).toBeCloseTo(DBN.attractiveness[1]!, 1);
    for (let r = 1; r < 10; r += 1) expect(clicksAt[r]).toBeLessThan(clicksAt[r - 1]);
    expect(clicksAt[9] / clicksAt[0]).toBeLessThan(0.4);
  });

  it('turns a search into feedback the API takes: impressions with positions and features, clicks with dwell', () => {
    const session = planSession(catalogue, 3, 0, 'demo-x');
    const search = session.searches[0]!;
    const shown = search.query.engineOrder.slice(0, 10);
    const clicks = [{ position: 2, doc: shown[1]!, timeToClickMs: 3000, dwellMs: 45_000, satisfied: true, rating: 4, converted: true }];
    const items = searchFeedback(search, shown, clicks, Date.parse('2026-11-20T10:00:00Z'), 'mobile');
    expect(items.filter((i) => i.metadata.userAction === 'impression')).toHaveLength(10);
    expect(items[1]!.metadata.customMetadata).toMatchObject({ position: 2, features: shown[1]!.features });
    expect(items.map((i) => i.metadata.userAction).slice(10)).toEqual(['click', 'rate', 'purchase']);
    expect(items[10]!.metadata).toMatchObject({ timestamp: '2026-11-20T10:00:03.000Z', customMetadata: { dwellTime: 45_000 } });
    expect(items[11]!.rating).toBe(4);
  });

  it('compresses event time and never stamps events in the future', () => {
    const start = Date.parse('2026-11-23T00:00:00Z');
    const clock = simulatedClock(start, 7, 3360);
    expect(clock(start)).toBe(start - 7 * 86_400_000);
    expect(clock(start + 90_000)).toBe(start - 7 * 86_400_000 + 90_000 * 3360);
    expect(clock(start + 600_000)).toBeLessThanOrEqual(start + 600_000 - 10 * 60_000);
  });
});
