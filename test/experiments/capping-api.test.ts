import { expect, it } from 'vitest';
import { createRng } from '../../src/random/index.js';
import { capArms, compareArms } from '../../src/stats/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';
let n = 0;

describeOnEveryDatabase('experiment results with capping', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  it('caps dwell_time per unit at the pooled 90th percentile of the unit ratios; ?capping=off gives the uncapped result', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: `cap-${(n += 1)}`,
      configuration: {
        variants: [{ id: 'control' }, { id: 'treatment' }],
        targetMetrics: ['dwell_time'],
        // A fixed seed and fixed unit ids make the split, and so the data, the same on every run
        // (with the experiment id as the seed the capped and uncapped estimates could by chance
        // come within the last assertion's 1e-3 of each other).
        seed: 'capping-api',
        analysis: { capping: { dwell_time: { type: 'percentile', value: 0.9 } } },
      },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
    const rng = createRng(29);
    const units: Record<string, { x: number[]; y: number[] }> = { control: { x: [], y: [] }, treatment: { x: [], y: [] } };
    for (let s = 0; s < 160; s += 1) {
      const unitId = `cap-unit-${s}`;
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
      clock.advance(1000);
      const clicks = 1 + Math.floor(rng.uniform() * 3);
      const items = [];
      let total = 0;
      for (let c = 0; c < clicks; c += 1) {
        // Heavy tail: one dwell in 15 is a tab left open for an hour.
        const dwell = Math.round(rng.uniform() < 1 / 15 ? 3_600_000 : 5_000 + rng.uniform() * (variant === 'treatment' ? 40_000 : 30_000));
        total += dwell;
        items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: c + 1, dwellTime: dwell } } });
      }
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
      units[variant]!.x.push(total);
      units[variant]!.y.push(clicks);
    }
    // The service reads units ordered by unit id; capping sums do not depend on the order.
    const arms = [
      { numerators: units.control!.x, denominators: units.control!.y },
      { numerators: units.treatment!.x, denominators: units.treatment!.y },
    ];
    const expected = capArms(arms, { type: 'percentile', value: 0.9 });
    const data = (await getJson(t.app, `${BASE}/experiments/${id}/results?correction=none`)).body.data;
    const metric = data.metrics[0];
    expect(metric.capping.cap).toBeCloseTo(expected.cap!, 9);
    expect(metric.capping.cappedUnits).toEqual({ control: expected.arms[0]!.cappedUnits, treatment: expected.arms[1]!.cappedUnits });
    expect(expected.arms[0]!.cappedUnits + expected.arms[1]!.cappedUnits).toBeGreaterThan(0);
    const capped = compareArms(expected.arms[0]!.sums, expected.arms[1]!.sums, { scale: 'relative' });
    const cmp = metric.comparisons[0];
    expect(metric.variants[0].numerator).toBeCloseTo(expected.arms[0]!.sums.sumX, 6);
    expect(cmp.estimate).toBeCloseTo(capped.estimate!, 9);
    expect(cmp.pValue).toBeCloseTo(capped.pValue!, 9);
    expect(cmp.interval[0]).toBeCloseTo(capped.interval![0], 9);

    const off = (await getJson(t.app, `${BASE}/experiments/${id}/results?correction=none&capping=off`)).body.data.metrics[0];
    const uncapped = compareArms(expected.arms[0]!.uncapped, expected.arms[1]!.uncapped, { scale: 'relative' });
    expect(off.capping).toBeNull();
    expect(off.comparisons[0].pValue).toBeCloseTo(uncapped.pValue!, 9);
    expect(off.comparisons[0].estimate).toBeCloseTo(uncapped.estimate!, 9);
    expect(off.comparisons[0].interval[0]).toBeCloseTo(uncapped.interval![0], 9);
    expect(Math.abs(off.comparisons[0].estimate - cmp.estimate)).toBeGreaterThan(1e-3);
  });

  it('refuses bad capping with 400 naming the field', async () => {
    const post = (capping: unknown) =>
      postJson(t.app, `${BASE}/experiments`, {
        name: `cap-bad-${(n += 1)}`,
        configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { capping } },
      });
    const bad = await post({ dwell_time: { type: 'percentile', value: 1.5 } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain('/configuration/analysis/capping/dwell_time');
    expectError(
      await post({ revenue: { type: 'absolute', value: 10 } }),
      400,
      'VALIDATION_ERROR',
      '/configuration/analysis/capping/revenue',
    );
  });
});
