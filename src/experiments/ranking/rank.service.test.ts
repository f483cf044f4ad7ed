import { describe, expect, it } from 'vitest';
import { createFakeExperiments } from '../fake-experiments.js';
import type { ModelCatalog } from '../ports/model-catalog.js';

/** Two "models": `up` scores by the feature x, `down` by −x; the production alias is set per test. */
function setup(alias: { modelId: string; version: number } | null = null) {
  const catalog: ModelCatalog = {
    resolveRankable: async (modelId) =>
      ['up', 'down'].includes(modelId) ? { ok: true, activeVersion: 2 } : { ok: false, field: 'modelId', message: 'not found' },
    score: async (modelId, _version, input) => ({
      scores: input.results.map((r) => (modelId === 'up' ? 1 : -1) * (r.features?.x ?? 0)),
    }),
    resolveAlias: async () => (alias ? { alias: 'production', ...alias } : null),
    aliasTarget: async () => null,
  };
  const fake = createFakeExperiments({ now: Date.parse('2026-11-22T12:00:00Z'), modelCatalog: catalog });
  const { experimentService: definitions, lifecycleService: lifecycle, rankService: rank } = fake;
  const { interleaved: lists } = fake.stores;
  // Exposures are written behind the answer: read them once those answered are committed.
  const exposures = {
    countExposures: async (id: string, phase: number) => (
      await fake.assignmentService.settled(),
      fake.stores.exposures.countExposures(id, phase)
    ),
  };
  return { definitions, lifecycle, exposures, lists, rank };
}

const results = ['a', 'b', 'c', 'd'].map((resultId, i) => ({ resultId, features: { x: i } }));

describe('RankService (fake stores)', () => {
  it('keeps the engine’s order with no experiment and no alias, and serves the alias when set', async () => {
    const none = await setup().rank.rank({ unitId: 'u', queryId: 'q', results });
    expect(none.served).toEqual({ source: 'original' });
    expect(none.results.map((r) => r.resultId)).toEqual(['a', 'b', 'c', 'd']);
    const aliased = await setup({ modelId: 'up', version: 2 }).rank.rank({ unitId: 'u', queryId: 'q', results });
    expect(aliased.served).toEqual({ source: 'alias', alias: 'production', modelId: 'up', version: 2 });
    expect(aliased.results.map((r) => [r.resultId, r.rank, r.score])).toEqual([
      ['d', 1, 3],
      ['c', 2, 2],
      ['b', 3, 1],
      ['a', 4, 0],
    ]);
  });

  it('an interleaving experiment decides: the same list for the same query, recorded once, teams from both rankers', async () => {
    const t = setup({ modelId: 'up', version: 2 });
    const created = await t.definitions.create({
      name: 'il',
      configuration: {
        type: 'interleaving',
        variants: [
          { id: 'up', model: { modelId: 'up' } },
          { id: 'down', model: { modelId: 'down' } },
        ],
      },
    });
    await t.lifecycle.act(created.experimentId, 'start');
    const first = await t.rank.rank({ unitId: 'u1', queryId: 'q1', results });
    const again = await t.rank.rank({ unitId: 'u1', queryId: 'q1', results });
    expect(again).toEqual(first);
    expect(first.served).toEqual({ source: 'experiment', experimentId: created.experimentId, method: 'team-draft' });
    // Rank 1 is the first choice of the team that picked first: d for up, a for down.
    const top = first.results[0]!;
    expect(top.resultId).toBe(top.team === 'up' ? 'd' : 'a');
    expect(new Set(first.results.map((r) => r.team))).toEqual(new Set(['up', 'down']));
    await t.rank.settled(); // lists are written behind the answer
    expect(t.lists.rows.size).toBe(1);
    const exposed = await t.exposures.countExposures(created.experimentId, 0);
    expect(Object.values(exposed).reduce((a, b) => a + b, 0)).toBe(1);
    const [list] = await t.lists.listForPhase(created.experimentId, 0);
    expect(list!.results.map(([id]) => id)).toEqual(first.results.map((r) => r.resultId));
  });

  it('an A/B arm serves its pinned model; duplicates are refused naming the entry', async () => {
    const t = setup();
    const created = await t.definitions.create({
      name: 'ab',
      configuration: {
        variants: [
          { id: 'down', weight: 0, model: { modelId: 'down', version: 1 } },
          { id: 'up', weight: 1, model: { modelId: 'up' } },
        ],
      },
    });
    await t.lifecycle.act(created.experimentId, 'start');
    const served = await t.rank.rank({ unitId: 'u1', queryId: 'q1', results });
    expect(served.served).toEqual({ source: 'experiment', experimentId: created.experimentId, variantId: 'up', modelId: 'up', version: 2 });
    expect(served.results[0]!.resultId).toBe('d');
    expect(await t.exposures.countExposures(created.experimentId, 0)).toEqual({ up: 1 });
    await expect(
      t.rank.rank({ unitId: 'u', queryId: 'q', results: [...results, { resultId: 'b', features: { x: 0 } }] }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: '/results/4/resultId' }],
    });
  });
});
