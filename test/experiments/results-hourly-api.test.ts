import { expect, it } from 'vitest';
import { compareArms } from '../../src/stats/index.js';
import { createRng } from '../../src/random/index.js';
import { getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { ratioSumsOf } from './support/ratio-sums.js';

const BASE = '/api/nous/ab-testing';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Issue 25: on a phase's first days the cumulative lift is also read by exposure hour, so the chart draws a curve on day one.
describeOnEveryDatabase('experiment results by exposure hour', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  it('a phase younger than three days carries an hourly series, cumulative by exposure hour, ending at the totals; null from day three', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: 'hourly',
      configuration: { variants: [{ id: 'control' }, { id: 'treatment' }], targetMetrics: ['ctr', 'time_to_click_p50'], seed: 'hourly' },
    });
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
    const rng = createRng(25);
    // Per exposure hour and variant: each unit's clicks and impressions, as sent.
    const sent = new Map<string, { x: number[]; y: number[] }>();
    const start = clock.now();
    for (let hour = 0; hour < 5; hour += 1) {
      clock.set(start + hour * HOUR + 60_000);
      for (let s = 0; s < 24; s += 1) {
        const unitId = `h${hour}-${s}`;
        const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
        const impressions = 3;
        const rate = variant === 'treatment' ? 0.5 : 0.25;
        const feedback: unknown[] = [];
        let clicks = 0;
        for (let i = 0; i < impressions; i += 1) {
          feedback.push({ queryId: `${unitId}-q`, metadata: { userAction: 'impression', customMetadata: { position: i + 1 } } });
          if (rng.uniform() < rate) {
            clicks += 1;
            feedback.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: i + 1 } } });
          }
        }
        clock.advance(1000);
        await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback });
        const key = `${hour}\u0000${variant}`;
        const cell = sent.get(key) ?? { x: [], y: [] };
        cell.x.push(clicks);
        cell.y.push(impressions);
        sent.set(key, cell);
      }
    }
    const upTo = (hour: number, variant: string) => {
      const x: number[] = [];
      const y: number[] = [];
      for (let h = 0; h <= hour; h += 1) {
        x.push(...(sent.get(`${h}\u0000${variant}`)?.x ?? []));
        y.push(...(sent.get(`${h}\u0000${variant}`)?.y ?? []));
      }
      return ratioSumsOf(x, y);
    };

    const data = (await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data;
    expect(data.series.find((s: { metric: string }) => s.metric === 'ctr').points).toHaveLength(2); // one day, two arms
    // Ratio metrics only: the quantile metric's grids are kept per day.
    expect(data.hourlySeries.map((s: { metric: string }) => s.metric)).toEqual(['ctr']);
    const points = data.hourlySeries[0].points as {
      start: string;
      variantId: string;
      units: number;
      estimate: number | null;
      interval: number[] | null;
    }[];
    expect(points.map((p) => p.start)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4].map((h) => new Date(start + h * HOUR).toISOString()));
    for (let hour = 0; hour < 5; hour += 1) {
      const [c, v] = [upTo(hour, 'control'), upTo(hour, 'treatment')];
      const control = points.find((p) => p.variantId === 'control' && Date.parse(p.start) === start + hour * HOUR)!;
      const treatment = points.find((p) => p.variantId === 'treatment' && Date.parse(p.start) === start + hour * HOUR)!;
      expect(control.units).toBe(c.n);
      expect(treatment.units).toBe(v.n);
      expect(control.estimate).toBeNull();
      // Each hour's lift and interval are those of the units exposed up to the end of that hour, as sent.
      const expected = compareArms(c, v, { alpha: 0.05, scale: 'relative' });
      expect(treatment.estimate).toBeCloseTo(expected.relativeLift!, 12);
      expect(treatment.interval![0]).toBeCloseTo(expected.relativeCi![0], 12);
      expect(treatment.interval![1]).toBeCloseTo(expected.relativeCi![1], 12);
    }
    expect(upTo(4, 'control').n + upTo(4, 'treatment').n).toBe(120);
    // The last hour's point is the whole phase: the same lift as the daily series' only day.
    const daily = data.series
      .find((s: { metric: string }) => s.metric === 'ctr')
      .points.find((p: { variantId: string }) => p.variantId === 'treatment');
    expect(points.at(-1)!.estimate).toBeCloseTo(daily.estimate, 12);

    // On the absolute scale the hourly points follow the read.
    const absolute = (await getJson(t.app, `${BASE}/experiments/${id}/results?scale=absolute`)).body.data;
    const lastAbsolute = absolute.hourlySeries[0].points.at(-1);
    expect(lastAbsolute.estimate).toBeCloseTo(
      compareArms(upTo(4, 'control'), upTo(4, 'treatment'), { alpha: 0.05, scale: 'absolute' }).absoluteLift!,
      12,
    );

    // Exposures on two more days: three exposure days draw a daily curve, and the hourly series is gone.
    for (const day of [1, 2]) {
      clock.set(start + day * DAY);
      await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId: `d${day}` });
      const later = (await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data;
      expect(later.hourlySeries === null).toBe(day === 2);
    }
  });
});
