import { expect, it } from 'vitest';
import { createRng } from '../../src/random/index.js';
import { compareArms, compareProportions, holm, srmCheck } from '../../src/stats/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { ratioSumsOf } from './support/ratio-sums.js';

const BASE = '/api/nous/ab-testing';
let n = 0;
const DEVICES = ['desktop', 'mobile', 'tablet'];

describeOnEveryDatabase('experiment results by slice', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  it('analyses each deviceType slice from the maintained sums: equal to the stats functions on the raw sessions grouped by their first item', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: `slices-${(n += 1)}`,
      configuration: {
        variants: [{ id: 'control' }, { id: 'treatment' }],
        targetMetrics: ['ctr', 'conversion_rate'],
        analysis: { cuped: false },
      },
    });
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
    const rng = createRng(17);
    // Per device and variant: per-session clicks/impressions and conversions, from the raw simulation.
    const truth: Record<string, Record<string, { x: number[]; y: number[]; conv: number[] }>> = {};
    let silent = 0;
    for (let s = 0; s < 300; s += 1) {
      const unitId = `${id}-${s}`;
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
      clock.advance(1000);
      if (rng.uniform() < 0.1) {
        silent += 1; // exposed, never sends feedback: no slice value
        continue;
      }
      const device = DEVICES[Math.floor(rng.uniform() * 3)]!;
      const rate = (variant === 'treatment' ? 0.35 : 0.25) + (device === 'mobile' ? 0.1 : 0);
      const impressions = 1 + Math.floor(rng.uniform() * 4);
      const items: unknown[] = [];
      let clicks = 0;
      for (let i = 0; i < impressions; i += 1) {
        // Only the first item's deviceType decides the session's slice; later items say otherwise.
        const deviceType = i === 0 ? device : 'tv';
        items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'impression', customMetadata: { position: i + 1, deviceType } } });
        if (rng.uniform() < rate) {
          clicks += 1;
          items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: i + 1, deviceType: 'tv' } } });
        }
      }
      const converts = rng.uniform() < 0.2 ? 1 : 0;
      if (converts) items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'purchase' } });
      // Two submissions: the second batch must land in the slice the first fixed.
      const half = Math.ceil(items.length / 2);
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items.slice(0, half) });
      if (s % 7 === 0) await getJson(t.app, `${BASE}/experiments/${id}/results`); // attribute in between
      clock.advance(500);
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items.slice(half) });
      const cell = ((truth[device] ??= {})[variant] ??= { x: [], y: [], conv: [] });
      cell.x.push(clicks);
      cell.y.push(impressions);
      cell.conv.push(converts);
    }
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=deviceType`);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const slices = res.body.data.slices;
    expect(slices).toMatchObject({ dimension: 'deviceType', exploratory: true });
    expect(slices.values.map((v: { value: string }) => v.value).sort()).toEqual(DEVICES);
    const unitsWithout = Object.values(slices.unitsWithoutValue as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(unitsWithout).toBe(silent);

    const raw: number[] = [];
    const reported: number[] = [];
    for (const slice of slices.values) {
      const c = truth[slice.value]!.control!;
      const v = truth[slice.value]!.treatment!;
      expect(slice.units).toBe(c.x.length + v.x.length);
      expect(slice.srm.observed).toEqual({ control: c.x.length, treatment: v.x.length });
      expect(slice.srm.pValue).toBeCloseTo(srmCheck([c.x.length, v.x.length], [0.5, 0.5]).pValue!, 12);
      const ctr = slice.metrics.find((m: { metric: string }) => m.metric === 'ctr').comparisons[0];
      const expected = compareArms(ratioSumsOf(c.x, c.y), ratioSumsOf(v.x, v.y), { scale: 'relative' });
      expect(ctr.estimate).toBeCloseTo(expected.estimate!, 12);
      expect(ctr.pValue).toBeCloseTo(expected.pValue!, 12);
      expect(ctr.interval[0]).toBeCloseTo(expected.interval![0], 12);
      const conv = slice.metrics.find((m: { metric: string }) => m.metric === 'conversion_rate').comparisons[0];
      const sum = (a: number[]) => a.reduce((p, q) => p + q, 0);
      const expectedConv = compareProportions(sum(c.conv), c.conv.length, sum(v.conv), v.conv.length, { scale: 'relative' });
      expect(conv.pValue).toBeCloseTo(expectedConv.pValue!, 12);
      raw.push(ctr.pValue, conv.pValue);
      reported.push(ctr.adjustedPValue, conv.adjustedPValue);
    }
    // Corrected across slices × metrics × treatments, apart from the main results.
    const adjusted = holm(raw).adjusted;
    reported.forEach((p, i) => expect(p).toBeCloseTo(adjusted[i]!, 12));
    // Without ?dimension there are no slices; an undeclared dimension is refused.
    expect((await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data.slices).toBeNull();
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=language`), 400, 'VALIDATION_ERROR', '/dimension');
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=browser`), 400, 'VALIDATION_ERROR', '/dimension');
  });

  it('validates analysis.dimensions with 400 naming the field', async () => {
    const post = (dimensions: unknown) =>
      postJson(t.app, `${BASE}/experiments`, {
        name: `dims-${(n += 1)}`,
        configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { dimensions } },
      });
    expectError(await post(['browser']), 400, 'VALIDATION_ERROR', '/configuration/analysis/dimensions/0');
    expectError(await post('deviceType'), 400, 'VALIDATION_ERROR', '/configuration/analysis/dimensions');
    expect((await post(['language'])).statusCode).toBe(201);
  });
});
