import { expect, it } from 'vitest';
import { mulberry32 } from '../../src/random/index.js';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { sleep } from '../support/ports.js';

const BASE = '/api/nous/ab-testing/experiments';

describeOnEveryDatabase('multileaving external rankers', (kind) => {
  const t = useTestApp(kind);

  it('multileaves three lists, credits clicks, and reports the Holm-corrected matrix and the overall order', async () => {
    const created = await postJson(t.app, BASE, {
      name: 'three engines',
      configuration: { type: 'interleaving', variants: [{ id: 'bm25' }, { id: 'vector' }, { id: 'hybrid' }], interleaving: { depth: 5 } },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.configuration.interleaving).toEqual({ method: 'team-draft-multileave', depth: 5 });
    const id = created.body.data.experimentId as string;
    expect((await postJson(t.app, `${BASE}/${id}/start`, {})).statusCode).toBe(200);

    // Documents d0…d19; relevant ones are d0–d4. hybrid ranks them first, vector second-best, bm25 last.
    const docs = Array.from({ length: 20 }, (_, i) => `d${i}`);
    const rnd = mulberry32(9);
    const shuffle = (xs: string[]) =>
      xs
        .map((x) => [rnd(), x] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, x]) => x);
    for (let u = 0; u < 80; u += 1) {
      const unitId = `m-${u}`;
      const items: unknown[] = [];
      for (let k = 0; k < 3; k += 1) {
        const queryId = `${unitId}-${k}`;
        const relevant = docs.slice(0, 5);
        const rest = docs.slice(5);
        const rankings = {
          hybrid: [...shuffle(relevant), ...shuffle(rest)],
          vector: [...shuffle([...relevant.slice(0, 3), ...rest.slice(0, 2)]), ...shuffle([...relevant.slice(3), ...rest.slice(2)])],
          bm25: shuffle(docs),
        };
        const res = await postJson(t.app, `${BASE}/${id}/interleave`, { unitId, queryId, rankings });
        expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
        const top = (res.body.data.results as { resultId: string }[]).slice(0, 5);
        for (const r of top)
          if (relevant.includes(r.resultId) && rnd() < 0.6)
            items.push({ queryId, metadata: { resultId: r.resultId, userAction: 'click' } });
      }
      if (items.length)
        expect((await postJson(t.app, '/api/cortex/feedback', { sessionId: unitId, feedback: items })).statusCode).toBe(201);
    }
    // A click sent before its list was recorded is ignored and counted.
    await postJson(t.app, '/api/cortex/feedback', {
      sessionId: 'late',
      feedback: [{ queryId: 'late-q', metadata: { resultId: 'd0', userAction: 'click' } }],
    });
    await sleep(5);
    await postJson(t.app, `${BASE}/${id}/interleave`, {
      unitId: 'late',
      queryId: 'late-q',
      rankings: { bm25: ['d0'], vector: ['d1'], hybrid: ['d2'] },
    });

    const data = (await getJson(t.app, `${BASE}/${id}/results`)).body.data;
    const il = data.interleaving;
    expect(il.pairs).toHaveLength(3);
    expect(il.ignoredClicks.beforeList).toBe(1);
    expect(il.order.map((s: { variantId: string }) => s.variantId)).toEqual(['hybrid', 'vector', 'bm25']);
    expect(il.matrix.variantIds).toEqual(['bm25', 'vector', 'hybrid']);
    expect(il.matrix.preference[2][0]).toBeGreaterThan(0);
    expect(il.matrix.preference[0][2]).toBeCloseTo(-il.matrix.preference[2][0], 12);
    const hybridOverBm25 = il.pairs.find(
      (p: { variantId: string; opponentVariantId: string }) => p.variantId === 'bm25' && p.opponentVariantId === 'hybrid',
    );
    expect(hybridOverBm25).toMatchObject({ significant: true, winner: 'hybrid', test: 'clustered-score' });
    expect(hybridOverBm25.adjustedPValue).toBeGreaterThanOrEqual(hybridOverBm25.pValue);
    expect(data.summary).toMatch(/^overall order: hybrid, then vector, then bm25/);

    const sequential = (await getJson(t.app, `${BASE}/${id}/results?method=sequential`)).body.data.interleaving.pairs;
    expect(sequential.every((p: { test: string | null }) => p.test === 'sequential-score' || p.test === null)).toBe(true);
    const fixedWidth = hybridOverBm25.shareCi[1] - hybridOverBm25.shareCi[0];
    const seq = sequential.find(
      (p: { variantId: string; opponentVariantId: string }) => p.variantId === 'bm25' && p.opponentVariantId === 'hybrid',
    );
    expect(seq.shareCi[1] - seq.shareCi[0]).toBeGreaterThan(fixedWidth);

    // A/B experiments have no interleave.
    const ab = await postJson(t.app, BASE, { name: 'ab', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    expectError(
      await postJson(t.app, `${BASE}/${ab.body.data.experimentId}/interleave`, { unitId: 'u', queryId: 'q', rankings: { a: [], b: [] } }),
      409,
      'CONFLICT',
    );
  }, 180_000);

  it('team balance plays the role of SRM: a ranker that returns too few results fails it, and shipping then needs force', async () => {
    // One ranking experiment at a time: stop the multileave above first.
    for (const e of (await getJson(t.app, `${BASE}?status=running`)).body.data.items)
      await postJson(t.app, `${BASE}/${e.experimentId}/stop`, {});
    const created = await postJson(t.app, BASE, {
      name: 'short lists',
      configuration: { type: 'interleaving', variants: [{ id: 'full' }, { id: 'short' }] },
    });
    const id = created.body.data.experimentId as string;
    expect((await postJson(t.app, `${BASE}/${id}/start`, {})).statusCode).toBe(200);
    const docs = Array.from({ length: 12 }, (_, i) => `d${i}`);
    for (let q = 0; q < 40; q += 1) {
      const res = await postJson(t.app, `${BASE}/${id}/interleave`, {
        unitId: `b-${q}`,
        queryId: `b-${q}`,
        rankings: { full: docs, short: [docs[11]] },
      });
      expect(res.statusCode).toBe(200);
    }
    const data = (await getJson(t.app, `${BASE}/${id}/results`)).body.data;
    expect(data.interleaving.balance.passed).toBe(false);
    expect(data.trustworthy).toBe(false);
    expect(data.summary).toContain('team balance FAILED');
    const refused = await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'full' });
    expectError(refused, 409, 'CONFLICT', '/force');
    expect(refused.body.error.message).toContain('team-balance');
    const forced = await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'full', force: true });
    expect(forced.statusCode).toBe(200);
    expect(forced.body.data.conclusion).toMatchObject({ forced: true, winnerVariantId: 'full' });
  });

  it('refuses interleaving with one variant, and team-draft with three, naming the variants', async () => {
    const one = await postJson(t.app, BASE, { name: 'lonely', configuration: { type: 'interleaving', variants: [{ id: 'only' }] } });
    expectError(one, 400, 'VALIDATION_ERROR', '/configuration/variants');
    const three = await postJson(t.app, BASE, {
      name: 'crowded',
      configuration: { type: 'interleaving', variants: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], interleaving: { method: 'team-draft' } },
    });
    expectError(three, 400, 'VALIDATION_ERROR', '/configuration/variants');
  });
});
