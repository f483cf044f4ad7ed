import { expect, it } from 'vitest';
import { getJson, postJson } from '../support/http.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { trainRanker } from '../experiments/support/rankers.js';
import { mulberry32 } from '../../src/random/index.js';
import { examination, relevanceOf, writeLog } from './support/logged-searches.js';

const URL = '/api/nous/learn/evaluations';
const EXPERIMENTS = '/api/nous/ab-testing/experiments';
const START = Date.UTC(2026, 9, 1);
const window = { from: new Date(START).toISOString(), to: new Date(START + 86_400_000).toISOString() };

/** A LETOR file whose label follows feature 1, which the log's features carry as each result's relevance. */
function letor(seed: number): string {
  const random = mulberry32(seed);
  const lines: string[] = [];
  for (let q = 1; q <= 30; q += 1)
    for (let d = 0; d < 8; d += 1) {
      const x1 = random();
      lines.push(`${Math.round(4 * x1)} qid:${q} 1:${x1.toFixed(3)} 2:${Math.floor(random() * 8)}`);
    }
  return `${lines.join('\n')}\n`;
}

/**
 * Online traffic of the same world: each unit searches twice through POST /api/nous/rank (the
 * engine's order lists the results worst first), then reports the impressions of the list it was
 * shown and the clicks of PBM users (the log's examination and relevance).
 */
async function traffic(t: TestApp, units: number, seed: number): Promise<void> {
  const random = mulberry32(seed);
  for (let u = 0; u < units; u += 1) {
    const unitId = `unit-${u}`;
    const feedback: unknown[] = [];
    for (let k = 0; k < 2; k += 1) {
      const q = Math.floor(random() * 20);
      const queryId = `${unitId}-${k}`;
      const results = Array.from({ length: 10 }, (_, i) => 9 - i).map((d) => ({
        resultId: `q${q}-d${d}`,
        features: { '1': relevanceOf(q, d), '2': d },
      }));
      const res = await postJson(t.app, '/api/nous/rank', { unitId, queryId, queryHash: `query${q}`, results });
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
      (res.body.data.results as { resultId: string }[]).forEach(({ resultId }, i) => {
        const position = i + 1;
        const d = Number(resultId.split('-d')[1]);
        const metadata = { resultId, queryHash: `query${q}`, customMetadata: { position } };
        feedback.push({ queryId, metadata: { ...metadata, userAction: 'impression' } });
        if (random() < examination(position) && random() < relevanceOf(q, d))
          feedback.push({ queryId, metadata: { ...metadata, userAction: 'click' } });
      });
    }
    const sent = await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback });
    expect(sent.statusCode, JSON.stringify(sent.body)).toBe(201);
  }
}

describeOnEveryDatabase('the offline track record', (kind) => {
  const t = useTestApp(kind);

  it('pairs an evaluation with the A/B test of its version that started later: predicted beside observed, never hidden', async () => {
    await writeLog(t.database, { queries: 20, docs: 10, searches: 900, seed: 21, start: START });
    const version = await trainRanker(t, 'ltr', letor(3), { numTrees: 10, numLeaves: 4, minDataInLeaf: 5, earlyStoppingRounds: 0 });
    const evaluated = await postJson(t.app, URL, {
      candidate: { modelId: 'ltr' },
      ...window,
      metrics: ['mrr', 'ctr@10', 'abandonment_rate', 'satisfied_clicks'],
    });
    expect(evaluated.statusCode, JSON.stringify(evaluated.body)).toBe(201);
    const evaluationId = evaluated.body.data.evaluationId as string;
    expect((await getJson(t.app, `${URL}/track-record`)).body.data).toEqual({
      pairs: [],
      summary: { pairs: 0, insideShare: null, signAgreement: null, spearman: null },
    });

    const created = await postJson(t.app, EXPERIMENTS, {
      name: 'ltr online',
      configuration: {
        variants: [
          { id: 'original', weight: 0.5 },
          { id: 'ltr', weight: 0.5, model: { modelId: 'ltr' } },
        ],
        targetMetrics: ['mrr', 'ctr', 'abandonment_rate'],
        seed: 'track-record',
      },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const experimentId = created.body.data.experimentId as string;
    expect((await postJson(t.app, `${EXPERIMENTS}/${experimentId}/start`, {})).statusCode).toBe(200);
    // Made after the test started: a postdiction, which the record leaves out.
    const late = await postJson(t.app, URL, { candidate: { modelId: 'ltr' }, ...window, metrics: ['mrr'] });
    expect(late.statusCode).toBe(201);

    await traffic(t, 120, 5);
    const record = (await getJson(t.app, `${URL}/track-record`)).body.data;
    const results = (await getJson(t.app, `${EXPERIMENTS}/${experimentId}/results?scale=relative`)).body.data;
    const observedMrr = results.metrics
      .find((m: { metric: string }) => m.metric === 'mrr')
      .comparisons.find((c: { variantId: string }) => c.variantId === 'ltr');
    const predictedMrr = evaluated.body.data.metrics.find((m: { metric: string }) => m.metric === 'mrr').relativeDifference;

    expect(record.pairs.map((p: { evaluationId: string }) => p.evaluationId)).toEqual([evaluationId, evaluationId, evaluationId]);
    expect(record.pairs.map((p: { metric: string; offlineMetric: string }) => [p.offlineMetric, p.metric])).toEqual([
      ['mrr', 'mrr'],
      ['ctr@10', 'ctr'],
      ['abandonment_rate', 'abandonment_rate'],
    ]);
    const mrr = record.pairs[0];
    expect(mrr).toMatchObject({
      experimentId,
      experimentName: 'ltr online',
      variantKey: 'ltr',
      kind: 'ab',
      experimentStatus: 'running',
      predicted: predictedMrr,
      observed: { estimate: observedMrr.estimate, interval: observedMrr.interval },
    });
    expect(mrr.inside).toBe(mrr.observed.estimate >= mrr.predicted.interval[0] && mrr.observed.estimate <= mrr.predicted.interval[1]);
    expect(mrr.signAgrees).toBe(Math.sign(mrr.predicted.estimate) === Math.sign(mrr.observed.estimate));
    // The engine's order is worst first, so the ranker lifts MRR both offline and online.
    expect(mrr.predicted.estimate).toBeGreaterThan(0);
    expect(mrr.observed.estimate).toBeGreaterThan(0);
    const inside = record.pairs.filter((p: { inside: boolean }) => p.inside).length;
    expect(record.summary).toMatchObject({ pairs: 3, insideShare: inside / 3 });
    expect(record.summary.spearman).toBeGreaterThanOrEqual(-1);
    expect(version).toBe(1);
  }, 180_000);
});
