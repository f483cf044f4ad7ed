import { describe, expect, it } from 'vitest';
import { createFakeExperiments } from '../fake-experiments.js';
import type { ModelCatalog } from '../ports/model-catalog.js';
import type { ClickRelevance } from '../ports/click-relevance.js';
import { ExplorationService } from './exploration.service.js';
import type { FakeExplorationStore } from './fake-exploration.store.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const catalog: ModelCatalog = {
  resolveRankable: async (modelId) =>
    modelId === 'up' ? { ok: true, activeVersion: 2 } : { ok: false, field: 'modelId', message: 'not found' },
  score: async (_modelId, _version, input) => ({ scores: input.results.map((r) => r.features?.x ?? 0) }),
  resolveAlias: async () => null,
  aliasTarget: async () => null,
};

function setup(relevance: ClickRelevance | null = null) {
  const lines: { event: string; fields: Record<string, unknown>; message: string }[] = [];
  const events = {
    record: (event: string, fields: Record<string, unknown>, message: string) => void lines.push({ event, fields, message }),
  };
  const fake = createFakeExperiments({ now: NOW, modelCatalog: catalog, clickRelevance: relevance, events });
  return { ...fake, store: fake.stores.exploration as FakeExplorationStore, lines };
}

/** A share above the API's 0.2, set through the store as only a test may: every unit explored. */
function exploreEveryone(store: FakeExplorationStore, depth = 10) {
  store.current = { share: 1, depth, method: 'randpair', enabledAt: NOW, updatedAt: NOW, updatedBy: 'test' };
}

const results = ['a', 'b', 'c', 'd', 'e'].map((resultId, i) => ({ resultId, features: { x: 10 - i } }));

describe('ExplorationService', () => {
  it('is off by default: nothing explored, nothing recorded, the view says off', async () => {
    const t = setup();
    const served = await t.rankService.rank({ unitId: 'u', queryId: 'q', results });
    expect(served.exploration).toBeUndefined();
    expect(t.store.lists.size).toBe(0);
    expect(await t.explorationService.view()).toEqual({
      share: 0,
      depth: 10,
      method: 'randpair',
      enabled: false,
      updatedAt: null,
      updatedBy: null,
      shownLists: 0,
      expectedCost: null,
    });
  });

  it('an explored search differs from the served order in exactly one adjacent pair of the top depth, recorded with its propensity', async () => {
    const t = setup();
    exploreEveryone(t.store, 3);
    for (let q = 0; q < 40; q++) {
      const served = await t.rankService.rank({ unitId: `u${q}`, queryId: `q${q}`, queryHash: 'shoes', results });
      const shown = served.results.map((r) => r.resultId);
      const [i, j] = served.exploration!.swapped;
      expect(j).toBe(i + 1);
      expect(j).toBeLessThanOrEqual(3);
      const expected = ['a', 'b', 'c', 'd', 'e'];
      [expected[i - 1], expected[j - 1]] = [expected[j - 1]!, expected[i - 1]!];
      expect(shown).toEqual(expected);
      expect(served.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
      expect(served.exploration!.propensity).toBe(1 / 2);
      expect(served.exploration!.overallPropensity).toBe(1 / 2);
      expect(served.served).toEqual({ source: 'original' });
      // A retried call shows the same list and records nothing new.
      expect(await t.rankService.rank({ unitId: `u${q}`, queryId: `q${q}`, queryHash: 'shoes', results })).toEqual(served);
    }
    expect(t.store.lists.size).toBe(40);
    const recorded = [...t.store.lists.values()][0]!;
    expect(recorded).toMatchObject({ unitId: 'u0', queryId: 'q0', queryHash: 'shoes', propensity: 0.5, share: 1, recordedAt: NOW });
    expect(new Set([...t.store.lists.values()].map((l) => l.swapped[0]))).toEqual(new Set([1, 2]));
  });

  it('never explores an experiment’s arm', async () => {
    const t = setup();
    exploreEveryone(t.store);
    const created = await t.experimentService.create({
      name: 'ab',
      configuration: {
        variants: [
          { id: 'base', weight: 0, model: { modelId: 'up', version: 1 } },
          { id: 'up', weight: 1, model: { modelId: 'up' } },
        ],
      },
    });
    await t.lifecycleService.act(created.experimentId, 'start');
    for (let u = 0; u < 20; u++) {
      const served = await t.rankService.rank({ unitId: `u${u}`, queryId: 'q', results });
      expect(served.served.source).toBe('experiment');
      expect(served.exploration).toBeUndefined();
      expect(served.results.map((r) => r.resultId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    }
    expect(t.store.lists.size).toBe(0);
  });

  it('explores a share of 10 000 unit ids within 3 standard errors of the setting, the same units every time', () => {
    for (const share of [0.01, 0.05, 0.2]) {
      const n = 10_000;
      let explored = 0;
      for (let u = 0; u < n; u++) if (ExplorationService.explores(`unit-${u}`, share)) explored += 1;
      const se = Math.sqrt(n * share * (1 - share));
      expect(Math.abs(explored - n * share), `share ${share}: ${explored}`).toBeLessThan(3 * se);
    }
    expect(ExplorationService.explores('unit-7', 0)).toBe(false);
    const once = Array.from({ length: 100 }, (_, u) => ExplorationService.explores(`unit-${u}`, 0.05));
    expect(Array.from({ length: 100 }, (_, u) => ExplorationService.explores(`unit-${u}`, 0.05))).toEqual(once);
  });

  it('audits a change and reports the expected cost on the latest click model’s relevance', async () => {
    const relevance: ClickRelevance = {
      latest: async () => ({ modelId: 'clicks', version: 4 }),
      relevance: async (_m, _q, ids) => new Map(ids.map((id) => [id, id === 'a' ? 1 : id === 'z' ? null : 0])),
    };
    const t = setup(relevance);
    // Two logged searches: [a, b] loses 1 − 1/log2(3) to its one swap at depth 2; [b, a] gains as much.
    t.store.searches = [
      { queryHash: 'q1', resultIds: ['a', 'b'] },
      { queryHash: 'q1', resultIds: ['a', 'b', 'z'] },
    ];
    const view = await t.explorationService.update({ share: 0.1, depth: 2 }, 'admin-key');
    const d2 = 1 / Math.log2(3);
    expect(view).toMatchObject({ share: 0.1, depth: 2, method: 'randpair', enabled: true, updatedBy: 'admin-key', shownLists: 0 });
    expect(view.expectedCost!.perExploredSearch).toBeCloseTo(1 - d2, 12);
    expect(view.expectedCost!.ndcgAt10Loss).toBeCloseTo(0.1 * (1 - d2), 12);
    expect(view.expectedCost!.basis).toContain('click model clicks v4 over the latest 2 logged searches (1 queries');
    expect(view.expectedCost!.basis).toContain('4 of 5 shown results have a relevance estimate');
    await t.explorationService.update({ share: 0 }, 'admin-key');
    expect(t.lines.map((l) => [l.event, l.message])).toEqual([
      ['rank.exploration.changed', 'rank exploration on for 10 % of units (RandPair in the top 2) by admin-key; was off'],
      ['rank.exploration.changed', 'rank exploration off by admin-key; was on for 10 % of units (RandPair in the top 2)'],
    ]);
    expect(t.lines[0]!.fields).toEqual({
      share: 0.1,
      depth: 2,
      method: 'randpair',
      previousShare: 0,
      previousDepth: 10,
      actor: 'admin-key',
    });
    expect(t.store.history.map((c) => [c.before?.share ?? null, c.after.share, c.actor])).toEqual([
      [null, 0.1, 'admin-key'],
      [0.1, 0, 'admin-key'],
    ]);
  });
});
