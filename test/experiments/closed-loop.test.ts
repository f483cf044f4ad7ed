import { expect, it } from 'vitest';
import { mulberry32 } from '../../src/random/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { lambdarankQueries, toLetor, trainRanker, type LetorQuery } from './support/rankers.js';

const BASE = '/api/nous/ab-testing/experiments';
const ALIASES = '/api/nous/learn/aliases';
const queries = lambdarankQueries();
const training = queries.slice(0, 150);
const heldOut = queries.slice(150);

const putAlias = (t: TestApp, alias: string, body: unknown) =>
  request(t.app, { method: 'PUT', url: `${ALIASES}/${alias}`, payload: body as object, headers: { 'content-type': 'application/json' } });

/**
 * Users who scan the list top-down (cascade model): at each result they click with probability
 * (2^label − 1)/16 and stop after a click with probability 0.5; everybody leaves after 10.
 */
function simulateClicks(shown: string[], labels: Map<string, number>, rnd: () => number): string[] {
  const clicked: string[] = [];
  for (const id of shown.slice(0, 10)) {
    const label = labels.get(id) ?? 0;
    if (rnd() < (2 ** label - 1) / 16) {
      clicked.push(id);
      if (rnd() < 0.5) break;
    }
  }
  return clicked;
}

/** Units each issue `perUnit` held-out queries through POST /api/nous/rank and click what they are shown. */
async function traffic(t: TestApp, prefix: string, units: number, perUnit: number, seed: number) {
  const rnd = mulberry32(seed);
  const served: Record<string, unknown>[] = [];
  for (let u = 0; u < units; u += 1) {
    const unitId = `${prefix}-${u}`;
    const items: unknown[] = [];
    for (let k = 0; k < perUnit; k += 1) {
      const q = heldOut[Math.floor(rnd() * heldOut.length)] as LetorQuery;
      const queryId = `${unitId}-q${k}`;
      const res = await postJson(t.app, '/api/nous/rank', {
        unitId,
        queryId,
        results: q.docs.map((d) => ({ resultId: d.resultId, features: d.features })),
      });
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
      served.push(res.body.data.served);
      const labels = new Map(q.docs.map((d) => [d.resultId, d.label]));
      const shown = (res.body.data.results as { resultId: string }[]).map((r) => r.resultId);
      for (const resultId of simulateClicks(shown, labels, rnd)) {
        items.push({ queryId, metadata: { resultId, userAction: 'click', customMetadata: { position: shown.indexOf(resultId) + 1 } } });
      }
    }
    if (items.length > 0) {
      const res = await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items });
      expect(res.statusCode, JSON.stringify(res.body)).toBe(201);
    }
  }
  return served;
}

describeOnEveryDatabase('the closed loop: rankers as variants, interleaving, promotion', (kind) => {
  const t = useTestApp(kind);
  let interleavingId = '';

  it('trains two rankers from one uploaded LETOR file; production starts on the weak one', async () => {
    const letor = toLetor(training);
    await trainRanker(t, 'weak', letor, { numTrees: 1, numLeaves: 2, minDataInLeaf: 50, earlyStoppingRounds: 0 });
    await trainRanker(t, 'strong', letor, { numTrees: 40, numLeaves: 15, minDataInLeaf: 5, learningRate: 0.1 });
    expect((await putAlias(t, 'production', { modelId: 'weak', reason: 'baseline' })).statusCode).toBe(200);
    // No experiment yet: the production alias serves.
    const results = heldOut[0]!.docs.slice(0, 5).map((d) => ({ resultId: d.resultId, features: d.features }));
    const res = await postJson(t.app, '/api/nous/rank', { unitId: 'u0', queryId: 'q0', results });
    expect(res.body.data.served).toMatchObject({ source: 'alias', alias: 'production', modelId: 'weak', version: 1 });
  }, 120_000);

  it('refuses bad interleaving input with a 4xx naming the field', async () => {
    await postJson(t.app, '/api/nous/learn/models', { modelId: 'cm', name: 'cm', type: 'click_model' });
    const one = await postJson(t.app, BASE, {
      name: 'one',
      configuration: { type: 'interleaving', variants: [{ id: 'strong', model: { modelId: 'strong' } }] },
    });
    expectError(one, 400, 'VALIDATION_ERROR', '/configuration/variants');
    const three = await postJson(t.app, BASE, {
      name: 'three',
      configuration: {
        type: 'interleaving',
        interleaving: { method: 'team-draft' },
        variants: [{ id: 'a' }, { id: 'b', model: { modelId: 'weak' } }, { id: 'c', model: { modelId: 'strong' } }],
      },
    });
    expectError(three, 400, 'VALIDATION_ERROR', '/configuration/variants');
    const notRanker = await postJson(t.app, BASE, {
      name: 'cm',
      configuration: { type: 'interleaving', variants: [{ id: 'original' }, { id: 'cm', model: { modelId: 'cm' } }] },
    });
    expectError(notRanker, 400, 'VALIDATION_ERROR', '/configuration/variants/1/model/modelId');
    const dup = await postJson(t.app, '/api/nous/rank', { unitId: 'u', queryId: 'q', results: [{ resultId: 'a' }, { resultId: 'a' }] });
    expectError(dup, 400, 'VALIDATION_ERROR', '/results/1/resultId');
  });

  it('interleaves the two rankers for every unit, credits clicks sent as feedback, and prefers the strong one', async () => {
    const created = await postJson(t.app, BASE, {
      name: 'weak vs strong',
      configuration: {
        type: 'interleaving',
        variants: [
          { id: 'weak', name: 'ranker-weak', model: { modelId: 'weak' } },
          { id: 'strong', name: 'ranker-strong', model: { modelId: 'strong' } },
        ],
        promote: { alias: 'production' },
        seed: 'closed-loop-interleaving',
      },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    interleavingId = created.body.data.experimentId;
    expect(created.body.data.configuration).toMatchObject({ type: 'interleaving', interleaving: { method: 'team-draft', depth: 10 } });
    expect((await postJson(t.app, `${BASE}/${interleavingId}/start`, {})).statusCode).toBe(200);

    // One ranking experiment per unit: a second that could share units is refused, naming the first.
    const ab = await postJson(t.app, BASE, {
      name: 'second',
      configuration: { variants: [{ id: 'original' }, { id: 'strong', model: { modelId: 'strong' } }] },
    });
    const refused = await postJson(t.app, `${BASE}/${ab.body.data.experimentId}/start`, {});
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toContain(interleavingId);

    // The same call gives the same list and teams.
    const call = {
      unitId: 'same',
      queryId: 'same-q',
      results: heldOut[1]!.docs.map((d) => ({ resultId: d.resultId, features: d.features })),
    };
    const first = await postJson(t.app, '/api/nous/rank', call);
    const again = await postJson(t.app, '/api/nous/rank', call);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data.served).toEqual({ source: 'experiment', experimentId: interleavingId, method: 'team-draft' });
    expect(new Set(first.body.data.results.map((r: { team: string }) => r.team))).toEqual(new Set(['weak', 'strong']));

    const served = await traffic(t, 'i', 120, 5, 42);
    expect(served.every((s) => s.experimentId === interleavingId)).toBe(true);
    // A click on a result that was never shown is ignored and counted.
    await postJson(t.app, '/api/cortex/feedback', {
      sessionId: 'i-0',
      feedback: [{ queryId: 'i-0-q0', metadata: { resultId: 'never-shown', userAction: 'click' } }],
    });

    const results = (await getJson(t.app, `${BASE}/${interleavingId}/results`)).body.data;
    const pair = results.interleaving.pairs[0];
    expect(pair).toMatchObject({ variantId: 'weak', opponentVariantId: 'strong', significant: true, winner: 'strong' });
    expect(pair.queries).toBe(601);
    expect(pair.wins + pair.losses + pair.ties).toBe(pair.queries);
    expect(pair.preference).toBeLessThan(0);
    expect(pair.ci[1]).toBeLessThan(0);
    expect(results.interleaving.ignoredClicks.notShown).toBe(1);
    expect(results.interleaving.balance.passed).toBe(true);
    expect(results.trustworthy).toBe(true);
    expect(results.summary).toMatch(/^ranker-strong beats ranker-weak in \d+\.\d % of decided queries \[\d+\.\d %, \d+\.\d %\], p [<=] /);

    // Attribution folded every click once: results do not change when read again.
    const reread = (await getJson(t.app, `${BASE}/${interleavingId}/results`)).body.data.interleaving.pairs[0];
    expect(reread).toEqual(pair);
  }, 180_000);

  it('external rankers: interleave answers the list with teams; unknown variants and duplicates are 400s naming the field', async () => {
    const url = `${BASE}/${interleavingId}/interleave`;
    const ok = await postJson(t.app, url, { unitId: 'ext', queryId: 'e1', rankings: { weak: ['a', 'b', 'c'], strong: ['c', 'a', 'd'] } });
    expect(ok.statusCode, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.results.map((r: { resultId: string }) => r.resultId).sort()).toEqual(['a', 'b', 'c', 'd']);
    expectError(
      await postJson(t.app, url, { unitId: 'ext', queryId: 'e2', rankings: { weak: ['a'], zzz: ['b'] } }),
      400,
      'VALIDATION_ERROR',
      '/rankings/zzz',
    );
    expectError(
      await postJson(t.app, url, { unitId: 'ext', queryId: 'e2', rankings: { weak: ['a'], strong: ['b', 'c', 'b'] } }),
      400,
      'VALIDATION_ERROR',
      '/rankings/strong/2',
    );
    expectError(
      await postJson(t.app, url, { unitId: 'ext', queryId: 'e2', rankings: { weak: ['a'] } }),
      400,
      'VALIDATION_ERROR',
      '/rankings/strong',
    );
  });

  it('conclude ship moves production to the winner’s pinned version in the same write; rank serves it; moving back restores the loser', async () => {
    const refused = await postJson(t.app, `${BASE}/${interleavingId}/conclude`, { decision: 'ship', winnerVariantId: 'nope' });
    expectError(refused, 400, 'VALIDATION_ERROR', '/winnerVariantId');
    const concluded = await postJson(t.app, `${BASE}/${interleavingId}/conclude`, { decision: 'ship', winnerVariantId: 'strong' });
    expect(concluded.statusCode, JSON.stringify(concluded.body)).toBe(200);
    expect(concluded.body.data.conclusion.promotion).toEqual({
      alias: 'production',
      modelId: 'strong',
      version: 1,
      from: { modelId: 'weak', version: null },
    });
    const alias = (await getJson(t.app, `${ALIASES}/production`)).body.data;
    expect(alias).toMatchObject({ modelId: 'strong', version: 1, servingVersion: 1 });
    const events = (await getJson(t.app, `${ALIASES}/production/events`)).body.data.items;
    expect(events.at(-1)).toMatchObject({
      from: { modelId: 'weak', version: null },
      to: { modelId: 'strong', version: 1 },
      experimentId: interleavingId,
    });

    const call = {
      unitId: 'newcomer',
      queryId: 'n1',
      results: heldOut[2]!.docs.map((d) => ({ resultId: d.resultId, features: d.features })),
    };
    const served = await postJson(t.app, '/api/nous/rank', call);
    expect(served.body.data.served).toEqual({ source: 'alias', alias: 'production', modelId: 'strong', version: 1 });

    expect((await putAlias(t, 'production', { modelId: 'weak', reason: 'roll back' })).statusCode).toBe(200);
    const back = await postJson(t.app, '/api/nous/rank', { ...call, queryId: 'n2' });
    expect(back.body.data.served).toMatchObject({ source: 'alias', modelId: 'weak' });
  });

  it('an A/B test with a model-backed variant: rank serves each arm, a winner without a model cannot be promoted, the model-backed one is', async () => {
    const created = await postJson(t.app, BASE, {
      name: 'ab ranking',
      configuration: {
        variants: [{ id: 'original' }, { id: 'strong', model: { modelId: 'strong' } }],
        targetMetrics: ['mrr', 'ctr'],
        promote: { alias: 'production' },
        seed: 'closed-loop-ab',
      },
    });
    const id = created.body.data.experimentId as string;
    expect((await postJson(t.app, `${BASE}/${id}/start`, {})).statusCode).toBe(200);
    const served = await traffic(t, 'ab', 300, 3, 7);
    const arms = new Set(served.map((s) => `${s.variantId}:${s.modelId ?? ''}:${s.version ?? ''}`));
    expect(arms).toEqual(new Set(['original::', 'strong:strong:1']));
    // Exposures recorded as assign records them.
    const assigned = await postJson(t.app, `${BASE}/${id}/assign`, { unitId: 'ab-0' });
    expect(served[0]).toMatchObject({ variantId: assigned.body.data.variantId });
    const results = (await getJson(t.app, `${BASE}/${id}/results`)).body.data;
    expect(results.metrics[0].variants.reduce((s: number, v: { units: number }) => s + v.units, 0)).toBe(300);
    // The engine's order here is the file's order; the strong ranker raises the reciprocal rank of the first click.
    const mrr = results.metrics.find((m: { metric: string }) => m.metric === 'mrr').comparisons[0];
    expect(mrr).toMatchObject({ variantId: 'strong', significant: true });
    expect(mrr.relativeLift).toBeGreaterThan(0);
    expect(results.summary).toMatch(/^strong raises mrr by/);

    const noModel = await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'original', force: true });
    expectError(noModel, 409, 'CONFLICT', '/winnerVariantId');
    const shipped = await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'strong', force: true });
    expect(shipped.statusCode, JSON.stringify(shipped.body)).toBe(200);
    expect(shipped.body.data.conclusion.promotion).toMatchObject({ alias: 'production', modelId: 'strong', version: 1 });
    expect((await getJson(t.app, `${ALIASES}/production`)).body.data.modelId).toBe('strong');
  }, 120_000);
});
