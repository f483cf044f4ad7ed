import { expect, it } from 'vitest';
import { assign, type AssignableExperiment } from '../../src/experiments/bucketing/index.js';
import { createRng } from '../../src/random/index.js';
import {
  armMoments,
  bayesianTest,
  compareArms,
  compareProportions,
  holm,
  srmCheck,
  unitsStillNeeded,
  type RatioSums,
} from '../../src/stats/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { ratioSumsOf } from './support/ratio-sums.js';

const BASE = '/api/nous/ab-testing';
const DAY = 86_400_000;
let n = 0;

describeOnEveryDatabase('experiment results', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  async function startExperiment(configuration: Record<string, unknown>) {
    const created = await postJson(t.app, `${BASE}/experiments`, { name: `results-${(n += 1)}`, configuration });
    const id = created.body.data.experimentId as string;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });
    return id;
  }

  /** Simulates sessions: assign, then impressions and clicks with a per-variant click rate. */
  async function simulate(
    id: string,
    sessions: number,
    clickRate: Record<string, number>,
    seed: number,
    prefix: string,
    covariate = false,
  ) {
    const rng = createRng(seed);
    const truth: Record<string, { clicks: number[]; impressions: number[] }> = {};
    for (let s = 0; s < sessions; s += 1) {
      if (s % 50 === 0 && s > 0) clock.advance(DAY / 4);
      const unitId = `${prefix}-${s}`;
      const prior = rng.uniform();
      const attributes = covariate ? { covariates: { ctr: prior } } : undefined;
      const assigned = await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId, ...(attributes ? { attributes } : {}) });
      const variant = assigned.body.data.variantId as string;
      const impressions = 2 + Math.floor(rng.uniform() * 4);
      let clicks = 0;
      const items = [];
      for (let i = 0; i < impressions; i += 1) {
        items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'impression', customMetadata: { position: i + 1 } } });
        // With a covariate, the unit's own propensity drives clicks: CUPED has signal to remove.
        const p = covariate ? Math.min(1, clickRate[variant]! * 2 * prior) : clickRate[variant]!;
        if (rng.uniform() < p) {
          clicks += 1;
          items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'click', customMetadata: { position: i + 1 } } });
        }
      }
      clock.advance(1000);
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
      (truth[variant] ??= { clicks: [], impressions: [] }).clicks.push(clicks);
      truth[variant]!.impressions.push(impressions);
    }
    return truth;
  }

  const moments = (c: RatioSums, v: RatioSums) => {
    const [a, b] = [armMoments(c), armMoments(v)];
    return { nControl: a.n, nVariant: b.n, varianceControl: a.variance!, varianceVariant: b.variance! };
  };

  it('conversion_rate: every exposed session counts once in the denominator, converted or silent', async () => {
    const id = await startExperiment({
      variants: [{ id: 'control' }, { id: 'treatment' }],
      targetMetrics: ['conversion_rate'],
      analysis: { cuped: false },
    });
    const rng = createRng(11);
    const converted: Record<string, number[]> = { control: [], treatment: [] };
    for (let s = 0; s < 120; s += 1) {
      const unitId = `conv-${s}`;
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
      const draw = rng.uniform();
      clock.advance(1000);
      // A third send nothing after exposure; some convert twice (counted once).
      if (draw < 0.33) {
        converted[variant]!.push(0);
        continue;
      }
      const converts = draw > (variant === 'treatment' ? 0.6 : 0.75);
      const items: unknown[] = [{ queryId: `${unitId}-q`, metadata: { userAction: 'impression', customMetadata: { position: 1 } } }];
      if (converts) items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'purchase' } });
      if (converts && draw > 0.9) items.push({ queryId: `${unitId}-q`, metadata: { userAction: 'conversion' } });
      await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
      converted[variant]!.push(converts ? 1 : 0);
    }
    const data = (await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data;
    const metric = data.metrics.find((m: { metric: string }) => m.metric === 'conversion_rate');
    const c = ratioSumsOf(
      converted.control!,
      converted.control!.map(() => 1),
    );
    const v = ratioSumsOf(
      converted.treatment!,
      converted.treatment!.map(() => 1),
    );
    expect(metric.variants).toEqual([
      { variantId: 'control', units: c.n, numerator: c.sumX, denominator: c.n, value: c.sumX / c.n },
      { variantId: 'treatment', units: v.n, numerator: v.sumX, denominator: v.n, value: v.sumX / v.n },
    ]);
    // A proportion of sessions: the score test and its inverted interval, on the relative scale by default.
    const expected = compareProportions(c.sumX, c.n, v.sumX, v.n, { alpha: 0.05, scale: 'relative' });
    const cmp = metric.comparisons[0];
    expect(cmp).toMatchObject({ scale: 'relative', test: 'score', ci: null, otherScale: { scale: 'absolute' } });
    expect(cmp.absoluteLift).toBeCloseTo(expected.absoluteLift!, 12);
    expect(cmp.estimate).toBeCloseTo(expected.relativeLift!, 12);
    expect(cmp.pValue).toBeCloseTo(expected.pValue!, 12);
    expect(cmp.interval[0]).toBeCloseTo(expected.interval![0], 9);
    expect(cmp.interval[1]).toBeCloseTo(expected.interval![1], 9);
    expect(cmp.relativeCi).toEqual(cmp.interval);
    expect(cmp.otherScale.estimate).toBeCloseTo(expected.absoluteLift!, 12);
    const absolute = (await getJson(t.app, `${BASE}/experiments/${id}/results?scale=absolute`)).body.data;
    const abs = absolute.metrics[0].comparisons[0];
    const expectedAbs = compareProportions(c.sumX, c.n, v.sumX, v.n, { alpha: 0.05, scale: 'absolute' });
    expect(absolute.scale).toBe('absolute');
    expect(abs).toMatchObject({ scale: 'absolute', relativeCi: null, otherScale: { scale: 'relative' } });
    expect(abs.estimate).toBeCloseTo(expectedAbs.absoluteLift!, 12);
    expect(abs.interval[0]).toBeCloseTo(expectedAbs.interval![0], 9);
    expect(abs.interval[1]).toBeCloseTo(expectedAbs.interval![1], 9);
    expect(abs.ci).toEqual(abs.interval);
    expect(abs.pValue).toBeCloseTo(expectedAbs.pValue!, 12);
  });

  it('reports per-variant sums and comparisons that equal the statistics computed from the raw sessions', async () => {
    const id = await startExperiment({
      variants: [{ id: 'control' }, { id: 'treatment' }],
      targetMetrics: ['ctr', 'abandonment_rate'],
      analysis: { cuped: false },
    });
    const truth = await simulate(id, 300, { control: 0.2, treatment: 0.3 }, 7, 'a');
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results`);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      experimentId: id,
      status: 'running',
      method: 'fixed',
      alpha: 0.05,
      correction: 'holm',
      trustworthy: true,
    });
    const ctr = data.metrics.find((m: { metric: string }) => m.metric === 'ctr');
    expect(ctr.direction).toBe('higher');
    const c = ratioSumsOf(truth.control!.clicks, truth.control!.impressions);
    const v = ratioSumsOf(truth.treatment!.clicks, truth.treatment!.impressions);
    expect(ctr.variants).toEqual([
      { variantId: 'control', units: c.n, numerator: c.sumX, denominator: c.sumY, value: c.sumX / c.sumY },
      { variantId: 'treatment', units: v.n, numerator: v.sumX, denominator: v.sumY, value: v.sumX / v.sumY },
    ]);
    // ctr is a ratio of per-session sums: the delta method, on the relative scale by default.
    const expected = compareArms(c, v, { alpha: 0.05, scale: 'relative' });
    const cmp = ctr.comparisons[0];
    expect(data.scale).toBe('relative');
    expect(cmp).toMatchObject({ variantId: 'treatment', controlVariantId: 'control', scale: 'relative', test: 'welch-t', ci: null });
    expect(cmp.absoluteLift).toBeCloseTo(expected.absoluteLift!, 12);
    expect(cmp.relativeLift).toBeCloseTo(expected.relativeLift!, 12);
    expect(cmp.estimate).toBeCloseTo(expected.relativeLift!, 12);
    expect(cmp.interval[0]).toBeCloseTo(expected.relativeCi![0], 12);
    expect(cmp.interval[1]).toBeCloseTo(expected.relativeCi![1], 12);
    expect(cmp.relativeCi).toEqual(cmp.interval);
    expect(cmp.pValue).toBeCloseTo(expected.pValue!, 12);
    expect(cmp.otherScale).toEqual({ scale: 'absolute', estimate: cmp.absoluteLift, reason: null });
    const abandonment = data.metrics.find((m: { metric: string }) => m.metric === 'abandonment_rate').comparisons[0];
    expect(cmp.adjustedPValue).toBeCloseTo(holm([cmp.pValue, abandonment.pValue]).adjusted[0]!, 12);
    expect(cmp.significant).toBe(cmp.adjustedPValue < 0.05);
    // The adjusted interval agrees with the adjusted p-value.
    expect(cmp.adjustedInterval[0] > 0 || cmp.adjustedInterval[1] < 0).toBe(cmp.significant);
    expect(cmp.chanceToBeatControl).toBeCloseTo(bayesianTest(c, v, { scale: 'relative' }).chanceToBeatControl!, 12);
    // Power and units still needed, planned as analysed: relative scale, Holm over the 2 target metrics' family (1 treatment × 2 metrics).
    const a = { n: c.n, mean: c.sumX / c.sumY };
    const planned = unitsStillNeeded({
      ...moments(c, v),
      baselineMean: a.mean,
      mde: 0.05,
      alpha: 0.05,
      correction: 'holm',
      comparisons: 2,
      method: 'fixed',
      tuningParameter: 5000,
      scale: 'relative',
      varianceReduction: 0,
      proportion: false,
    });
    expect(cmp.power).toBeCloseTo(planned.power!, 12);
    expect(cmp.unitsStillNeeded.additionalUnits).toBe(planned.additionalUnits);
    const srm = srmCheck([c.n, v.n], [0.5, 0.5]);
    expect(data.srm.pValue).toBeCloseTo(srm.pValue!, 12);
    expect(data.srm.observed).toEqual({ control: c.n, treatment: v.n });
    expect(data.summary).toMatch(/^treatment raises ctr by \d+\.\d %/);
    expect(data.summary).toContain('after Holm');
    expect(data.summary).toContain('SRM check passed');
    // The series is cumulative by exposure day and ends at the totals.
    const ctrSeries = data.series.find((s: { metric: string }) => s.metric === 'ctr').points;
    const last = ctrSeries.filter((p: { variantId: string }) => p.variantId === 'control').at(-1);
    expect(last.units).toBe(c.n);
    expect(ctrSeries.length).toBe(4);
    // Each day's treatment point carries the lift and interval of the data up to that day; the last equals the totals'.
    const lastLift = ctrSeries.filter((p: { variantId: string }) => p.variantId === 'treatment').at(-1);
    expect(lastLift.estimate).toBeCloseTo(expected.relativeLift!, 12);
    expect(lastLift.interval[0]).toBeCloseTo(expected.relativeCi![0], 12);
    expect(lastLift.interval[1]).toBeCloseTo(expected.relativeCi![1], 12);
    expect(last.estimate).toBeNull();
    expect(last.interval).toBeNull();
    expect(data.dataFreshAsOf).not.toBeNull();

    // On the absolute scale every verdict moves with it; the Bayesian view too.
    const absolute = (await getJson(t.app, `${BASE}/experiments/${id}/results?scale=absolute`)).body.data;
    const abs = absolute.metrics[0].comparisons[0];
    const absExpected = compareArms(c, v, { alpha: 0.05, scale: 'absolute' });
    expect(abs).toMatchObject({ scale: 'absolute', relativeCi: null, otherScale: { scale: 'relative', reason: null } });
    expect(abs.estimate).toBeCloseTo(absExpected.absoluteLift!, 12);
    expect(abs.interval[0]).toBeCloseTo(absExpected.ci![0], 12);
    expect(abs.interval[1]).toBeCloseTo(absExpected.ci![1], 12);
    expect(abs.pValue).toBeCloseTo(absExpected.pValue!, 12);
    expect(abs.chanceToBeatControl).toBeCloseTo(bayesianTest(c, v, { scale: 'absolute' }).chanceToBeatControl!, 12);
    expect(absolute.summary).toMatch(/^treatment raises ctr by an absolute \d/);

    const sequential = await getJson(t.app, `${BASE}/experiments/${id}/results?method=sequential&correction=none`);
    const seq = sequential.body.data.metrics[0].comparisons[0];
    const seqExpected = compareArms(c, v, { alpha: 0.05, method: 'sequential', tuningParameter: 5000 });
    expect(seq.test).toBe('confidence-sequence');
    expect(seq.pValue).toBeCloseTo(seqExpected.pValue!, 12);
    expect(seq.interval[0]).toBeCloseTo(seqExpected.relativeCi![0], 12);
    expect(seq.adjustedPValue).toBe(seq.pValue);
    expect(seq.adjustedInterval).toEqual(seq.interval);
    expect(seq.interval[1] - seq.interval[0]).toBeGreaterThan(cmp.interval[1] - cmp.interval[0]);
  });

  it('analysis.priors: a per-metric prior on the read scale (converted with |control mean| on the other); 400 naming the field', async () => {
    const prior = { mean: 0, stdDev: 0.02 };
    const id = await startExperiment({
      variants: [{ id: 'control' }, { id: 'treatment' }],
      targetMetrics: ['ctr'],
      analysis: { cuped: false, priors: { ctr: prior } },
    });
    const truth = await simulate(id, 120, { control: 0.2, treatment: 0.3 }, 5, 'prior');
    const c = ratioSumsOf(truth.control!.clicks, truth.control!.impressions);
    const v = ratioSumsOf(truth.treatment!.clicks, truth.treatment!.impressions);
    const rel = (await getJson(t.app, `${BASE}/experiments/${id}/results`)).body.data.metrics[0].comparisons[0];
    expect(rel.chanceToBeatControl).toBeCloseTo(bayesianTest(c, v, { scale: 'relative', prior }).chanceToBeatControl!, 12);
    expect(rel.chanceToBeatControl).not.toBeCloseTo(bayesianTest(c, v, { scale: 'relative' }).chanceToBeatControl!, 6);
    const abs = (await getJson(t.app, `${BASE}/experiments/${id}/results?scale=absolute`)).body.data.metrics[0].comparisons[0];
    const a = c.sumX / c.sumY;
    expect(abs.chanceToBeatControl).toBeCloseTo(
      bayesianTest(c, v, { scale: 'absolute', prior: { mean: 0, stdDev: 0.02 * a } }).chanceToBeatControl!,
      12,
    );
    const bad = await postJson(t.app, `${BASE}/experiments`, {
      name: `prior-bad-${(n += 1)}`,
      configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { priors: { ctr: { mean: 0, stdDev: 0 } } } },
    });
    expectError(bad, 400, 'VALIDATION_ERROR', '/configuration/analysis/priors/ctr/stdDev');
    const unknown = await postJson(t.app, `${BASE}/experiments`, {
      name: `prior-bad-${(n += 1)}`,
      configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { priors: { revenue: { mean: 0, stdDev: 1 } } } },
    });
    expectError(unknown, 400, 'VALIDATION_ERROR', '/configuration/analysis/priors/revenue');
  });

  it('uses covariates sent with assign for CUPED and reports the variance reduction', async () => {
    const id = await startExperiment({ variants: [{ id: 'control' }, { id: 'treatment' }], targetMetrics: ['ctr'] });
    await simulate(id, 240, { control: 0.25, treatment: 0.3 }, 11, 'cuped', true);
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results`);
    const cmp = res.body.data.metrics[0].comparisons[0];
    expect(cmp.cuped.unitsWithCovariate).toBe(240);
    expect(cmp.cuped.varianceReduction).toBeGreaterThan(0.1);
  });

  it('uses each unit’s own feedback from before its exposure as the CUPED covariate', async () => {
    const id = await startExperiment({ variants: [{ id: 'control' }, { id: 'treatment' }], targetMetrics: ['ctr'] });
    const rng = createRng(23);
    const units = 200;
    const propensity = Array.from({ length: units }, () => 0.05 + 0.6 * rng.uniform());
    const session = (u: number, p: number) =>
      Array.from({ length: 6 }, (_, i) => [
        { queryId: `pre-${u}-${i}`, metadata: { userAction: 'impression', customMetadata: { position: 1 } } },
        ...(rng.uniform() < p ? [{ queryId: `pre-${u}-${i}`, metadata: { userAction: 'click', customMetadata: { position: 1 } } }] : []),
      ]).flat();
    // Before exposure: each user's habits show in their own history.
    for (let u = 0; u < units; u += 1)
      await postJson(t.app, '/api/cortex/feedback', { sessionId: `user-${u}`, feedback: session(u, propensity[u]!) });
    clock.advance(60_000);
    for (let u = 0; u < units; u += 1) await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId: `user-${u}` });
    clock.advance(60_000);
    for (let u = 0; u < units; u += 1)
      await postJson(t.app, '/api/cortex/feedback', { sessionId: `user-${u}`, feedback: session(u, propensity[u]!) });
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results`);
    const cmp = res.body.data.metrics[0].comparisons[0];
    expect(cmp.cuped.unitsWithCovariate).toBe(units);
    expect(cmp.cuped.varianceReduction).toBeGreaterThan(0.2);
    const sources = await t.container.database.db
      .selectFrom('experiment_unit_covariates')
      .select('source')
      .distinct()
      .where('experiment_id', '=', id)
      .execute();
    expect(sources).toEqual([{ source: 'pre_exposure' }]);
  });

  it('a failed sample-ratio check marks results untrustworthy and blocks shipping unless forced', async () => {
    const id = await startExperiment({ variants: [{ id: 'control' }, { id: 'treatment' }], seed: 'srm-seed' });
    // A client that drops most treatment sessions (say, a crash in the new layout) skews the split.
    const plan: AssignableExperiment = {
      seed: 'srm-seed',
      variants: [
        { id: 'control', weight: 0.5 },
        { id: 'treatment', weight: 0.5 },
      ],
      trafficAllocation: 1,
    };
    let control = 0;
    let treatment = 0;
    for (let i = 0; control < 220 || treatment < 80; i += 1) {
      const unitId = `srm-${i}`;
      const variant = assign(plan, unitId).variantId;
      if (variant === 'control' ? control >= 220 : treatment >= 80) continue;
      await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId });
      if (variant === 'control') control += 1;
      else treatment += 1;
    }
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results`);
    expect(res.body.data.trustworthy).toBe(false);
    expect(res.body.data.srm.passed).toBe(false);
    expect(res.body.data.srm.expected).toEqual({ control: 150, treatment: 150 });
    expect(res.body.data.summary).toContain('SRM check FAILED');
    const blocked = await postJson(t.app, `${BASE}/experiments/${id}/conclude`, { decision: 'ship', winnerVariantId: 'treatment' });
    expectError(blocked, 409, 'CONFLICT', '/force');
    const forced = await postJson(t.app, `${BASE}/experiments/${id}/conclude`, {
      decision: 'ship',
      winnerVariantId: 'treatment',
      force: true,
    });
    expect(forced.statusCode).toBe(200);
    expect(forced.body.data.conclusion.forced).toBe(true);
  });

  it('answers for an experiment without data, and 404/400 for bad requests', async () => {
    const id = await startExperiment({ variants: [{ id: 'a' }, { id: 'b' }] });
    const res = await getJson(t.app, `${BASE}/experiments/${id}/results`);
    expect(res.statusCode).toBe(200);
    expect(res.body.data.metrics[0].comparisons[0]).toMatchObject({ pValue: null, significant: false, reason: 'EMPTY_ARM' });
    expect(res.body.data.srm.passed).toBe(true);
    expectError(await getJson(t.app, `${BASE}/experiments/nope/results`), 404, 'NOT_FOUND');
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?phase=3`), 400, 'VALIDATION_ERROR', '/phase');
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?method=bayes`), 400, 'VALIDATION_ERROR', '/method');
    expectError(await getJson(t.app, `${BASE}/experiments/${id}/results?scale=log`), 400, 'VALIDATION_ERROR', '/scale');
  });
});
