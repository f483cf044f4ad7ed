import { expect, it } from 'vitest';
import { createRng } from '../../src/random/index.js';
import { guardrailProportions, guardrailTest } from '../../src/stats/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { ratioSumsOf } from './support/ratio-sums.js';

const BASE = '/api/nous/ab-testing';
let n = 0;

describeOnEveryDatabase('experiment guardrails', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  async function startExperiment(analysis: Record<string, unknown>) {
    const configuration = {
      variants: [{ id: 'control' }, { id: 'treatment' }],
      targetMetrics: ['ctr'],
      analysis: { cuped: false, ...analysis },
    };
    const created = await postJson(t.app, `${BASE}/experiments`, { name: `guard-${(n += 1)}`, configuration });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
    return id;
  }

  /** Sessions of one search each: impressions, a click with the variant's rate, a conversion with another. */
  async function simulate(id: string, sessions: number, clickRate: Record<string, number>, seed: number) {
    const rng = createRng(seed);
    const truth: Record<string, { clicks: number[]; impressions: number[]; converted: number[] }> = {};
    for (let s = 0; s < sessions; s += 1) {
      const unitId = `${id}-${s}`;
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
      const impressions = 2 + Math.floor(rng.uniform() * 3);
      const items: unknown[] = [];
      let clicks = 0;
      for (let i = 0; i < impressions; i += 1) {
        items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'impression', customMetadata: { position: i + 1 } } });
        if (rng.uniform() < clickRate[variant]!) {
          clicks += 1;
          items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: i + 1 } } });
        }
      }
      const converts = rng.uniform() < 0.3 ? 1 : 0;
      if (converts) items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'purchase' } });
      clock.advance(1000);
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
      const row = (truth[variant] ??= { clicks: [], impressions: [], converted: [] });
      row.clicks.push(clicks);
      row.impressions.push(impressions);
      row.converted.push(converts);
    }
    return truth;
  }

  it('reports each guardrail apart from the targets, fixed and sequential, equal to the stats functions on the raw sessions', async () => {
    const id = await startExperiment({
      guardrails: [
        { metric: 'ctr', margin: 0.05 },
        { metric: 'conversion_rate', margin: 0.05, scale: 'absolute' },
      ],
    });
    const truth = await simulate(id, 240, { control: 0.4, treatment: 0.2 }, 31);
    const data = (await getJson(t.app, `${BASE}/experiments/${id}/results?correction=holm`)).body.data;
    const c = ratioSumsOf(truth.control!.clicks, truth.control!.impressions);
    const v = ratioSumsOf(truth.treatment!.clicks, truth.treatment!.impressions);
    // The targets' family is the one target metric: the guardrails are not in the correction.
    const target = data.metrics[0].comparisons[0];
    expect(target.adjustedPValue).toBe(target.pValue);
    const [ctr, conversion] = data.guardrails;
    expect(ctr).toMatchObject({ metric: 'ctr', direction: 'higher', margin: 0.05, scale: 'relative', method: 'fixed', autoPause: false });
    const expected = guardrailTest(c, v, { direction: 'higher', margin: 0.05 }, { scale: 'relative', alpha: 0.05 });
    const got = ctr.comparisons[0];
    expect(got.status).toBe('breached');
    expect(got.status).toBe(expected.status);
    expect(got.estimate).toBeCloseTo(expected.estimate!, 12);
    expect(got.threshold).toBe(-0.05);
    expect(got.bounds[0]).toBeCloseTo(expected.bounds![0], 12);
    expect(got.bounds[1]).toBeCloseTo(expected.bounds![1], 12);
    expect(got.breachPValue).toBeCloseTo(expected.breachPValue!, 12);
    expect(got.nonInferiorityPValue).toBeCloseTo(expected.nonInferiorityPValue!, 12);

    const cc = truth.control!.converted;
    const vc = truth.treatment!.converted;
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    const expectedConversion = guardrailProportions(
      sum(cc),
      cc.length,
      sum(vc),
      vc.length,
      { direction: 'higher', margin: 0.05 },
      { scale: 'absolute', alpha: 0.05 },
    );
    expect(conversion).toMatchObject({ metric: 'conversion_rate', scale: 'absolute' });
    expect(conversion.comparisons[0].status).toBe(expectedConversion.status);
    expect(conversion.comparisons[0].nonInferiorityPValue).toBeCloseTo(expectedConversion.nonInferiorityPValue!, 9);
    expect(conversion.comparisons[0].bounds[0]).toBeCloseTo(expectedConversion.bounds![0], 9);

    // Sequential: wider bounds, valid under peeking; the guardrail's margin keeps its own scale under ?scale=absolute.
    const seq = (await getJson(t.app, `${BASE}/experiments/${id}/results?method=sequential&scale=absolute`)).body.data.guardrails[0];
    const expectedSeq = guardrailTest(
      c,
      v,
      { direction: 'higher', margin: 0.05 },
      { scale: 'relative', alpha: 0.05, method: 'sequential' },
    );
    expect(seq).toMatchObject({ method: 'sequential', scale: 'relative' });
    expect(seq.comparisons[0].status).toBe(expectedSeq.status);
    expect(seq.comparisons[0].breachPValue).toBeCloseTo(expectedSeq.breachPValue!, 12);
    expect(seq.comparisons[0].bounds[0]).toBeCloseTo(expectedSeq.bounds![0], 12);
    expect(seq.comparisons[0].bounds[1] - seq.comparisons[0].bounds[0]).toBeGreaterThan(got.bounds[1] - got.bounds[0]);
  });

  it('autoPause: the scheduled guardrail task pauses a breaching experiment with an audit event by "guardrail", and leaves a safe one running', async () => {
    const harmful = await startExperiment({ guardrails: [{ metric: 'ctr', margin: 0.02, autoPause: true }] });
    await simulate(harmful, 400, { control: 0.5, treatment: 0.15 }, 41);
    const safe = await startExperiment({ guardrails: [{ metric: 'ctr', margin: 0.02, autoPause: true }] });
    await simulate(safe, 200, { control: 0.3, treatment: 0.3 }, 43);
    const task = t.container.tasks.find((s) => s.name === 'guardrail-monitor')!;
    expect(task).toBeDefined();
    await task.run({ log: { error: () => undefined }, signal: new AbortController().signal });
    const paused = (await getJson(t.app, `${BASE}/experiments/${harmful}`)).body.data;
    expect(paused.status).toBe('paused');
    const events = (await getJson(t.app, `${BASE}/experiments/${harmful}/events`)).body.data.items;
    const event = events.find((e: { action: string }) => e.action === 'pause');
    expect(event.actor).toBe('guardrail');
    expect(event.after.status).toBe('paused');
    expect(event.after.guardrailBreaches[0]).toMatchObject({ metric: 'ctr', variantId: 'treatment', scale: 'relative', margin: 0.02 });
    expect((await getJson(t.app, `${BASE}/experiments/${safe}`)).body.data.status).toBe('running');
    // A second run finds nothing more to pause.
    expect(await task.run({ log: { error: () => undefined }, signal: new AbortController().signal })).toBe(0);
  });

  it('refuses bad guardrails with 400 naming the field', async () => {
    const body = (guardrails: unknown) => ({
      name: `bad-${(n += 1)}`,
      configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { guardrails } },
    });
    const post = (g: unknown) => postJson(t.app, `${BASE}/experiments`, body(g));
    expectError(await post([{ metric: 'ctr', margin: -0.1 }]), 400, 'VALIDATION_ERROR', '/configuration/analysis/guardrails/0/margin');
    expectError(await post([{ metric: 'revenue', margin: 0.1 }]), 400, 'VALIDATION_ERROR', '/configuration/analysis/guardrails/0/metric');
    expectError(await post([{ metric: 'ctr' }]), 400, 'VALIDATION_ERROR', '/configuration/analysis/guardrails/0/margin');
    expectError(await post([{ metric: 'ctr', margin: 1.5 }]), 400, 'VALIDATION_ERROR', '/configuration/analysis/guardrails/0/margin');
    expectError(
      await post([
        { metric: 'ctr', margin: 0.1 },
        { metric: 'ctr', margin: 0.2 },
      ]),
      400,
      'VALIDATION_ERROR',
      '/configuration/analysis/guardrails/1/metric',
    );
    expectError(
      await post([{ metric: 'ctr', margin: 0.1, autoPause: 'yes' }]),
      400,
      'VALIDATION_ERROR',
      '/configuration/analysis/guardrails/0/autoPause',
    );
  });
});
