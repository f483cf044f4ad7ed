import { expect, it } from 'vitest';
import { createRng } from '../../src/random/index.js';
import {
  analyzeEffect,
  compareQuantiles,
  guardrailEffectTest,
  quantileEffect,
  quantileGridSums,
  quantileOfGrid,
  quantileOfItems,
  quantileUnitsStillNeeded,
} from '../../src/stats/index.js';
import { QUANTILE_GRID } from '../../src/experiments/model/stored-quantile-grid.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';
let n = 0;
const DEVICES = ['desktop', 'mobile'];
/** ~2 s on a quiet machine (880 requests); the bound only keeps a loaded, shared PostgreSQL from failing it. */
const LOADED_MACHINE_TIMEOUT_MS = 120_000;
type Units = Record<string, number[][]>;

/**
 * Quantile metrics through the results endpoint: the numbers served from the grid sums attribution keeps
 * equal compareQuantiles on grid sums built from the raw simulated sessions (src/stats), per arm, per
 * slice and as a guardrail, fixed and sequential, on both databases.
 */
describeOnEveryDatabase('quantile metrics in experiment results', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  it(
    'serves time_to_click_p50 and dwell_time_p90 equal to compareQuantiles on the raw sessions’ grid sums',
    async () => {
      const created = await postJson(t.app, `${BASE}/experiments`, {
        name: `quantiles-${(n += 1)}`,
        configuration: {
          variants: [{ id: 'control' }, { id: 'treatment' }],
          targetMetrics: ['time_to_click_p50', 'dwell_time_p90', 'ctr'],
          analysis: {
            correction: 'none',
            cuped: false,
            dimensions: ['deviceType'],
            guardrails: [{ metric: 'time_to_click_p90', margin: 0.1 }],
          },
        },
      });
      expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.experimentId as string;
      await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
      const rng = createRng(41);
      // Per variant: each session's time-to-click and dwell values (items of a session share a session effect).
      const ttc: Units = { control: [], treatment: [] };
      const dwell: Units = { control: [], treatment: [] };
      const byDevice: Record<string, { ttc: Units; dwell: Units }> = {};
      for (let s = 0; s < 160; s += 1) {
        const unitId = `${id}-${s}`;
        const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
        clock.advance(1000);
        if (s % 10 === 9) continue; // exposed, silent
        const device = DEVICES[s % 2]!;
        const session = 0.5 * rng.normal();
        const clicks = 1 + rng.poisson(2);
        const items: unknown[] = [];
        const t1: number[] = [];
        const d1: number[] = [];
        for (let c = 0; c < clicks; c += 1) {
          const timeToClick = Math.round(Math.exp(Math.log(variant === 'treatment' ? 1800 : 2000) + session + 0.7 * rng.normal()));
          const meta: Record<string, unknown> = { position: c + 1, deviceType: device, timeToClick };
          t1.push(timeToClick);
          // Dwell on most clicks, with a long tail; some clicks carry none.
          if (rng.uniform() < 0.8) {
            const dwellTime = Math.min(86_400_000, Math.round(Math.exp(Math.log(20_000) + session + 1.2 * rng.normal())));
            meta.dwellTime = dwellTime;
            d1.push(dwellTime);
          }
          items.push({ queryId: `${unitId}-q${c % 2}`, metadata: { userAction: 'click', customMetadata: meta } });
        }
        items.push({ queryId: `${unitId}-q0`, metadata: { userAction: 'impression', customMetadata: { position: 1 } } });
        // Two submissions with an attribution run between: the unit's grid positions grow incrementally.
        const half = Math.ceil(items.length / 2);
        await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items.slice(0, half) });
        if (s % 5 === 0) await getJson(t.app, `${BASE}/experiments/${id}/results`);
        clock.advance(500);
        await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items.slice(half) });
        ttc[variant]!.push(t1);
        dwell[variant]!.push(d1);
        const cell = (byDevice[device] ??= { ttc: { control: [], treatment: [] }, dwell: { control: [], treatment: [] } });
        cell.ttc[variant]!.push(t1);
        cell.dwell[variant]!.push(d1);
      }
      const grid = (units: number[][]) => quantileGridSums(units, QUANTILE_GRID);

      for (const method of ['fixed', 'sequential'] as const) {
        for (const scale of ['relative', 'absolute'] as const) {
          const res = await getJson(t.app, `${BASE}/experiments/${id}/results?method=${method}&scale=${scale}&dimension=deviceType`);
          expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
          const data = res.body.data;
          for (const [metric, units, q] of [
            ['time_to_click_p50', ttc, 0.5],
            ['dwell_time_p90', dwell, 0.9],
          ] as const) {
            const served = data.metrics.find((m: { metric: string }) => m.metric === metric);
            expect(served.quantile).toMatchObject({ q, source: metric.startsWith('time') ? 'time_to_click' : 'dwell_time' });
            const expected = compareQuantiles(grid(units.control!), grid(units.treatment!), { q, scale, method });
            for (const [i, arm] of (['control', 'treatment'] as const).entries()) {
              const e = quantileOfGrid(grid(units[arm]!), q);
              const v = served.variants[i];
              expect(v.variantId).toBe(arm);
              expect(v.units).toBe(units[arm]!.filter((u) => u.length > 0).length);
              expect(v.items).toBe(units[arm]!.flat().length);
              expect(v.value).toBeCloseTo(e.quantile!, 9);
              expect(v.standardError).toBeCloseTo(e.se!, 9);
              expect(v.numerator).toBeNull();
              // The grid's resolution: F̂ is exact at every threshold, so the served quantile lies in the same grid
              // cell (1 %) as the inverted-CDF item quantile x_(⌈qN⌉); type-4 interpolation differs by at most
              // the gap between the order statistics around it on top of that.
              const sorted = units[arm]!.flat().sort((a, b) => a - b);
              const inverted = sorted[Math.ceil(q * sorted.length) - 1]!;
              expect(Math.abs(v.value - inverted) / inverted).toBeLessThanOrEqual(0.0101);
              const type4 = quantileOfItems(units[arm]!, q).quantile!;
              const gap = sorted[Math.ceil(q * sorted.length)]! - sorted[Math.ceil(q * sorted.length) - 2]!;
              expect(Math.abs(v.value - type4)).toBeLessThanOrEqual(gap + 0.0101 * inverted);
            }
            const cmp = served.comparisons[0];
            expect(cmp.test).toBe(expected.basis!.kind);
            expect(cmp.scale).toBe(scale);
            expect(cmp.estimate).toBeCloseTo(expected.estimate!, 9);
            expect(cmp.interval[0]).toBeCloseTo(expected.interval![0], 9);
            expect(cmp.interval[1]).toBeCloseTo(expected.interval![1], 9);
            expect(cmp.pValue).toBeCloseTo(expected.pValue!, 9);
            expect(cmp.adjustedPValue).toBeCloseTo(expected.pValue!, 9);
            expect(cmp.significant).toBe(expected.pValue! < 0.05);
            expect(cmp.chanceToBeatControl).not.toBeNull();
            // Power and units still needed, planned as analysed (scale, method; 3 target metrics × 1 treatment).
            const plan = quantileUnitsStillNeeded(quantileOfGrid(grid(units.control!), q), quantileOfGrid(grid(units.treatment!), q), {
              mde: 0.05,
              alpha: 0.05,
              correction: 'none',
              comparisons: 3,
              method,
              scale,
            });
            expect(plan.power).not.toBeNull();
            expect(cmp.power).toBeCloseTo(plan.power!, 9);
            expect(cmp.unitsStillNeeded).toEqual({
              additionalUnits: plan.additionalUnits,
              requiredControl: plan.requiredControl,
              requiredVariant: plan.requiredVariant,
            });
          }
          // The guardrail: two one-sided tests of the p90 difference at a 10 % relative margin.
          const gEffect = quantileEffect(quantileOfGrid(grid(ttc.control!), 0.9), quantileOfGrid(grid(ttc.treatment!), 0.9));
          const g = guardrailEffectTest(gEffect, { direction: 'lower', margin: 0.1 }, { scale: 'relative', method, alpha: 0.05 });
          const served = data.guardrails[0].comparisons[0];
          expect(data.guardrails[0].metric).toBe('time_to_click_p90');
          expect(served.status).toBe(g.status);
          expect(served.bounds[0]).toBeCloseTo(g.bounds![0], 9);
          expect(served.nonInferiorityPValue).toBeCloseTo(g.nonInferiorityPValue!, 9);
          // Slices: each device's quantiles from the slice grid sums, equal to the raw sessions of that device.
          for (const slice of data.slices.values) {
            const cell = byDevice[slice.value]!;
            const m = slice.metrics.find((x: { metric: string }) => x.metric === 'time_to_click_p50');
            const e = compareQuantiles(grid(cell.ttc.control!), grid(cell.ttc.treatment!), { q: 0.5, scale, method });
            expect(m.comparisons[0].estimate).toBeCloseTo(e.estimate!, 9);
            expect(m.comparisons[0].pValue).toBeCloseTo(e.pValue!, 9);
            expect(m.variants[0].value).toBeCloseTo(quantileOfGrid(grid(cell.ttc.control!), 0.5).quantile!, 9);
          }
        }
      }
      // With Holm over the 3 target metrics the quantile metrics' plans use the Bonferroni bound α/3.
      const holm = (await getJson(t.app, `${BASE}/experiments/${id}/results?correction=holm`)).body.data;
      const p50 = holm.metrics.find((m: { metric: string }) => m.metric === 'time_to_click_p50').comparisons[0];
      const planned = quantileUnitsStillNeeded(quantileOfGrid(grid(ttc.control!), 0.5), quantileOfGrid(grid(ttc.treatment!), 0.5), {
        mde: 0.05,
        alpha: 0.05,
        correction: 'holm',
        comparisons: 3,
        scale: 'relative',
      });
      expect(p50.power).toBeCloseTo(planned.power!, 9);
      expect(p50.unitsStillNeeded.additionalUnits).toBe(planned.additionalUnits);
      expect(p50.unitsStillNeeded.additionalUnits).toBeGreaterThan(0);
      // The cumulative series ends at the whole-phase numbers.
      const data = (await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data;
      const series = data.series.find((x: { metric: string }) => x.metric === 'time_to_click_p50').points;
      const last = series.filter((p: { variantId: string }) => p.variantId === 'treatment').at(-1);
      const whole = compareQuantiles(grid(ttc.control!), grid(ttc.treatment!), { q: 0.5 });
      expect(last.estimate).toBeCloseTo(whole.estimate!, 9);
      expect(analyzeEffect(quantileEffect(whole.control, whole.variant), { scale: 'relative' }).pValue).toBeCloseTo(whole.pValue!, 12);
    },
    LOADED_MACHINE_TIMEOUT_MS,
  );

  it('names quantile metrics as targets and guardrails; refuses unknown ones and capping of a quantile with 400 naming the field', async () => {
    const post = (configuration: Record<string, unknown>) =>
      postJson(t.app, `${BASE}/experiments`, {
        name: `quantile-bad-${(n += 1)}`,
        configuration: { variants: [{ id: 'a' }, { id: 'b' }], ...configuration },
      });
    expect((await post({ targetMetrics: ['dwell_time_p50', 'time_to_click_p90'] })).statusCode).toBe(201);
    expectError(await post({ targetMetrics: ['dwell_time_p99'] }), 400, 'VALIDATION_ERROR', '/configuration/targetMetrics/0');
    expectError(
      await post({ analysis: { guardrails: [{ metric: 'time_to_click_p75', margin: 0.1 }] } }),
      400,
      'VALIDATION_ERROR',
      '/configuration/analysis/guardrails/0/metric',
    );
    expectError(
      await post({ analysis: { capping: { dwell_time_p90: { type: 'absolute', value: 10 } } } }),
      400,
      'VALIDATION_ERROR',
      '/configuration/analysis/capping/dwell_time_p90',
    );
  });
});
