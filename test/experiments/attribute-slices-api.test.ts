import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';
let n = 0;

/**
 * Slices by an assign attribute (`analysis.dimensions: ["attr:country"]`): a unit's value is the attribute
 * its first exposure sent. Every session sends the same feedback per (country, variant) cell, so the expected
 * numbers are written down by hand below.
 */
describeOnEveryDatabase('experiment results by assign attribute', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  it('slices by attr:country from the first exposure, numbers equal to the hand count', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: `attr-slices-${(n += 1)}`,
      configuration: {
        variants: [{ id: 'control' }, { id: 'treatment' }],
        targetMetrics: ['ctr'],
        analysis: { cuped: false, correction: 'none', dimensions: ['attr:country', 'deviceType'] },
      },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });

    // Per cell: impressions per session and clicks of its 1st, 2nd, … session (cycling).
    const clicksBy: Record<string, Record<string, number[]>> = {
      de: { control: [0, 1], treatment: [1, 2] },
      fr: { control: [1, 1], treatment: [2, 1] },
    };
    const count: Record<string, Record<string, { units: number; clicks: number; impressions: number }>> = {};
    const countries = ['de', 'fr', 'de', 'fr', 'de', 'de', null, 7];
    for (let s = 0; s < 48; s += 1) {
      const unitId = `${id}-u${s}`;
      const raw = countries[s % countries.length];
      const attributes = raw === null ? { platform: 'web' } : { country: raw, platform: 'web' };
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId, attributes })).body.data.variantId as string;
      // A second assign with another country: the first exposure's value stays.
      await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId, attributes: { country: 'xx' } });
      clock.advance(1000);
      if (s % 12 === 11) continue; // exposed, no feedback: no slice value (4 units)
      const value = raw === null ? '(unset)' : String(raw);
      const cell = ((count[value] ??= {})[variant] ??= { units: 0, clicks: 0, impressions: 0 });
      const pattern = clicksBy[value]?.[variant] ?? [1];
      const clicks = pattern[cell.units % pattern.length]!;
      cell.units += 1;
      cell.clicks += clicks;
      cell.impressions += 2;
      const items: unknown[] = [0, 1].map((p) => ({
        queryId: `${unitId}-q`,
        metadata: { userAction: 'impression', customMetadata: { position: p + 1 } },
      }));
      for (let c = 0; c < clicks; c += 1)
        items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: c + 1 } } });
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
    }
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=attr:country`);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const slices = res.body.data.slices;
    expect(slices.dimension).toBe('attr:country');
    expect(slices.note).toContain('first exposure');
    const byValue = Object.fromEntries(slices.values.map((v: { value: string }) => [v.value, v]));
    // 48 sessions cycle through 8 countries: de 24, fr 12, (unset) 6, 7 → "7" 6; minus the 4 silent ones
    // (s = 11, 23, 35, 47: country index 3, 7, 3, 7 → fr, 7, fr, 7).
    expect(Object.keys(byValue).sort()).toEqual(['(unset)', '7', 'de', 'fr']);
    expect(byValue.de.units).toBe(24);
    expect(byValue.fr.units).toBe(10);
    expect(byValue['(unset)'].units).toBe(6);
    expect(byValue['7'].units).toBe(4);
    const without = slices.unitsWithoutValue as Record<string, number>;
    expect(without.control! + without.treatment!).toBe(4);
    for (const [value, cells] of Object.entries(count)) {
      const slice = byValue[value];
      expect(slice.srm.observed).toEqual({ control: cells.control?.units ?? 0, treatment: cells.treatment?.units ?? 0 });
      const ctr = slice.metrics[0];
      for (const v of ctr.variants) {
        const cell = cells[v.variantId];
        expect(v.units).toBe(cell?.units ?? 0);
        // Hand count: clicks over impressions (2 per session) of the cell.
        if (cell) expect(v.value).toBeCloseTo(cell.clicks / cell.impressions, 12);
        else expect(v.value).toBeNull();
      }
    }
    // de: control sessions alternate 0, 1 clicks of 2 impressions, treatment 1, 2: with u units,
    // control ctr = ⌊u/2⌋ / 2u and treatment ctr = (u + ⌊u/2⌋) / 2u.
    const de = byValue.de.metrics[0].variants;
    const u = { control: count.de!.control!.units, treatment: count.de!.treatment!.units };
    expect(u.control + u.treatment).toBe(24);
    const variantValue = (id: string) => de.find((v: { variantId: string }) => v.variantId === id).value;
    expect(variantValue('control')).toBeCloseTo(Math.floor(u.control / 2) / (2 * u.control), 12);
    expect(variantValue('treatment')).toBeCloseTo((u.treatment + Math.floor(u.treatment / 2)) / (2 * u.treatment), 12);
    // A declared feedback dimension still works beside it; an undeclared attribute is refused.
    expect((await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=deviceType`)).statusCode).toBe(200);
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?dimension=attr:city`), 400, 'VALIDATION_ERROR', '/dimension');
  });

  it('validates attr: dimensions with 400 naming the field', async () => {
    const post = (dimensions: unknown) =>
      postJson(t.app, `${BASE}/experiments`, {
        name: `attr-dims-${(n += 1)}`,
        configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { dimensions } },
      });
    expectError(await post(['attr:']), 400, 'VALIDATION_ERROR', '/configuration/analysis/dimensions/0');
    expectError(await post(['deviceType', 'attr:has space']), 400, 'VALIDATION_ERROR', '/configuration/analysis/dimensions/1');
    expectError(await post([`attr:${'a'.repeat(28)}`]), 400, 'VALIDATION_ERROR', '/configuration/analysis/dimensions/0');
    expect((await post(['attr:country', 'attr:plan.tier'])).statusCode).toBe(201);
  });
});
