import { GrowthBook } from '@growthbook/growthbook';
import { expect, it } from 'vitest';
import { createContainer } from '../../src/container.js';
import { openDatabase } from '../../src/storage/database.js';
import { expectError, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';
let n = 0;

describeOnEveryDatabase('assignment', (kind) => {
  const t = useTestApp(kind);

  async function running(configuration: Record<string, unknown>): Promise<string> {
    const created = await postJson(t.app, `${BASE}/experiments`, { name: `assign-${(n += 1)}`, configuration });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId as string;
    expect((await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` })).statusCode).toBe(200);
    return id;
  }
  const assignOne = (id: string, unitId: string, attributes?: unknown) =>
    postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId, ...(attributes ? { attributes } : {}) });
  // Exposures are committed behind the answers: read the table once those answered are written.
  const exposures = async (id: string) => {
    await t.container.experiments.services.assignmentService.settled();
    return t.container.database.db.selectFrom('experiment_units').selectAll().where('experiment_id', '=', id).execute();
  };

  it('gives the variant GrowthBook would give with the same seed', async () => {
    const variants = [
      { id: 'a', weight: 0.2 },
      { id: 'b', weight: 0.3 },
      { id: 'c', weight: 0.5 },
    ];
    const id = await running({ variants, trafficAllocation: 0.7, seed: 'shared-seed' });
    const gb = new GrowthBook({});
    for (let i = 0; i < 300; i += 1) {
      const unitId = `user-${i}-é`;
      gb.setAttributes({ id: unitId });
      const expected = gb.run({
        key: 'x',
        seed: 'shared-seed',
        hashVersion: 2,
        variations: ['a', 'b', 'c'],
        weights: [0.2, 0.3, 0.5],
        coverage: 0.7,
      });
      const res = await assignOne(id, unitId);
      expect(res.statusCode).toBe(200);
      expect(res.body.data.inExperiment).toBe(expected.inExperiment);
      expect(res.body.data.variantId).toBe(expected.inExperiment ? expected.value : null);
    }
    gb.destroy();
  });

  it('answers for experiments that are not running, and 404 for unknown ones', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: `idle-${(n += 1)}`,
      configuration: { variants: [{ id: 'a' }, { id: 'b' }] },
    });
    const res = await assignOne(created.body.data.experimentId, 'u1');
    expect(res.body.data).toMatchObject({ inExperiment: false, variantId: null, reason: 'experiment_created' });
    expectError(await assignOne('missing', 'u1'), 404, 'NOT_FOUND');
    expectError(await postJson(t.app, `${BASE}/assign`, { unitId: '' }), 400, 'VALIDATION_ERROR', '/unitId');
    expectError(
      await postJson(t.app, `${BASE}/assign`, { unitId: 'u', attributes: { covariates: { revenue: 1 } } }),
      400,
      'VALIDATION_ERROR',
      '/attributes/covariates/revenue',
    );
    // The documented attribute limits: 50 keys, strings of 256 characters, arrays of 50.
    expectError(
      await postJson(t.app, `${BASE}/assign`, {
        unitId: 'u',
        attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`a${i}`, i])),
      }),
      400,
      'VALIDATION_ERROR',
      '/attributes',
    );
    expectError(
      await postJson(t.app, `${BASE}/assign`, { unitId: 'u', attributes: { country: 'x'.repeat(257) } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await postJson(t.app, `${BASE}/assign`, { unitId: 'u', attributes: { tags: Array.from({ length: 51 }, () => 'x') } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(
      (
        await postJson(t.app, `${BASE}/assign`, {
          unitId: 'u',
          attributes: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a${i}`, i])),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('records one exposure when one unit is assigned by 50 concurrent requests', async () => {
    const id = await running({ variants: [{ id: 'a' }, { id: 'b' }] });
    const results = await Promise.all(Array.from({ length: 50 }, () => assignOne(id, 'same-unit', { covariates: { ctr: 0.25 } })));
    expect(new Set(results.map((r) => r.body.data.variantId)).size).toBe(1);
    const rows = await exposures(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      unit_id: 'same-unit',
      phase: 0,
      variant_id: results[0]!.body.data.variantId,
      covariates: '{"ctr":0.25}',
    });
  });

  it('raising the allocation keeps every enrolled unit in its variant; only new units join', async () => {
    const id = await running({ variants: [{ id: 'a' }, { id: 'b' }], trafficAllocation: 0.3 });
    const before = new Map<string, string | null>();
    for (let i = 0; i < 400; i += 1) before.set(`r-${i}`, (await assignOne(id, `r-${i}`)).body.data.variantId);
    const patched = await request(t.app, {
      method: 'PATCH',
      url: `${BASE}/experiments/${id}`,
      payload: { configuration: { trafficAllocation: 0.9 } },
    });
    expect(patched.statusCode).toBe(200);
    let joined = 0;
    for (const [unit, variant] of before) {
      const now = (await assignOne(id, unit)).body.data.variantId;
      if (variant !== null) expect(now).toBe(variant);
      else if (now !== null) joined += 1;
    }
    expect(joined).toBeGreaterThan(150);
    const rows = await exposures(id);
    expect(rows.every((r) => before.get(r.unit_id) === null || before.get(r.unit_id) === r.variant_id)).toBe(true);
  });

  it('a new phase re-randomizes with a new seed and keeps exposures apart', async () => {
    const id = await running({ variants: [{ id: 'a' }, { id: 'b' }] });
    for (let i = 0; i < 50; i += 1) await assignOne(id, `p-${i}`);
    await request(t.app, {
      method: 'PATCH',
      url: `${BASE}/experiments/${id}`,
      payload: {
        configuration: {
          variants: [
            { id: 'a', weight: 0.1 },
            { id: 'b', weight: 0.9 },
          ],
        },
        newPhase: true,
      },
    });
    const res = await assignOne(id, 'p-0');
    expect(res.body.data.phase).toBe(1);
    for (let i = 1; i < 50; i += 1) await assignOne(id, `p-${i}`);
    const rows = await exposures(id);
    expect(rows.filter((r) => r.phase === 0)).toHaveLength(50);
    expect(rows.filter((r) => r.phase === 1)).toHaveLength(50);
    expect(rows.filter((r) => r.phase === 1 && r.variant_id === 'b').length).toBeGreaterThan(35);
  });

  it('experiments in one layer with disjoint slices never share a unit; conditions target', async () => {
    const left = await running({ variants: [{ id: 'a' }, { id: 'b' }], layer: { id: 'ranking', range: [0, 0.5] } });
    const right = await running({ variants: [{ id: 'a' }, { id: 'b' }], layer: { id: 'ranking', range: [0.5, 1] } });
    const nl = await running({ variants: [{ id: 'a' }, { id: 'b' }], conditions: { country: { $in: ['NL', 'BE'] } } });
    let inLeft = 0;
    let inRight = 0;
    for (let i = 0; i < 400; i += 1) {
      const res = await postJson(t.app, `${BASE}/assign`, { unitId: `layer-${i}`, attributes: { country: i % 2 ? 'NL' : 'US' } });
      const byId = new Map(res.body.data.assignments.map((a: { experimentId: string; inExperiment: boolean }) => [a.experimentId, a]));
      const l = (byId.get(left) as { inExperiment: boolean }).inExperiment;
      const r = (byId.get(right) as { inExperiment: boolean }).inExperiment;
      expect(l && r).toBe(false);
      inLeft += Number(l);
      inRight += Number(r);
      const target = byId.get(nl) as { inExperiment: boolean; reason: string };
      expect(target.inExperiment).toBe(i % 2 === 1);
      if (i % 2 === 0) expect(target.reason).toBe('conditions_not_met');
    }
    expect(inLeft + inRight).toBe(400);
  });

  it('a concluded winner is served to everyone; a concluded experiment without one serves nobody', async () => {
    const winner = await running({ variants: [{ id: 'a' }, { id: 'b' }] });
    const none = await running({ variants: [{ id: 'a' }, { id: 'b' }] });
    await postJson(t.app, `${BASE}/experiments/${winner}/conclude`, { decision: 'ship', winnerVariantId: 'b' });
    await postJson(t.app, `${BASE}/experiments/${none}/conclude`, { decision: 'rollback' });
    const all = (await postJson(t.app, `${BASE}/assign`, { unitId: 'after-conclusion' })).body.data.assignments;
    expect(all.find((a: { experimentId: string }) => a.experimentId === winner)).toMatchObject({
      inExperiment: false,
      variantId: 'b',
      reason: 'concluded_winner',
    });
    expect(all.find((a: { experimentId: string }) => a.experimentId === none)).toBeUndefined();
    expect((await assignOne(none, 'x')).body.data).toMatchObject({ inExperiment: false, variantId: null, reason: 'experiment_concluded' });
  });

  it("another instance's change reaches this instance's cache through the revision poll", async () => {
    const second = createContainer(await openDatabase(t.testDatabase.target));
    try {
      const id = await running({ variants: [{ id: 'a' }, { id: 'b' }] });
      expect((await second.experiments.services.assignmentService.assignOne(id, { unitId: 'x' })).inExperiment).toBe(true);
      await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/pause` });
      await second.experiments.services.assignmentService.refreshIfChanged();
      const all = await second.experiments.services.assignmentService.assignAll({ unitId: 'x' });
      expect(all.assignments.find((a) => a.experimentId === id)).toBeUndefined();
    } finally {
      await second.database.close();
    }
  });
});
