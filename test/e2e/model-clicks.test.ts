// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { mulberry32 } from '../../src/random/index.js';
import { integer, number } from '../../web/src/format.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { ARTIFACTS, DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls, type WatchedPage } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import type { DashboardServer } from './support/dashboard-server.js';

const chromiumPath = inject('chromiumPath');
const MODELS = '/api/nous/learn/models';
const ULM = 'ranker-ulm';
const IPS = 'ranker-ips';
const LETOR = 'ranker-letor';
const NAIVE = 'ranker-naive';
const JUDGED = 'ranker-judged';
const QUERIES = 20;
const DOCS = 10;
const SHOWN = 8;
const SESSIONS = 1200;
const TREES = { numTrees: 20, learningRate: 0.1, numLeaves: 7, minDataInLeaf: 3, seed: 7 };

function ok<T = any>(res: { status: number; body: any }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body.data as T;
}

/** Each query's results with three features and a hidden attractiveness the first two of them predict. */
function catalogue() {
  const rnd = mulberry32(27);
  return Array.from({ length: QUERIES }, (_, q) =>
    Array.from({ length: DOCS }, (_, d) => {
      const x = Array.from({ length: 3 }, () => Math.round(rnd() * 1000) / 1000);
      const attract = Math.min(0.9, Math.max(0.05, (2 * x[0]! + x[1]!) / 3));
      return { resultId: `q${q}-doc-${d}`, features: { f1: x[0]!, f2: x[1]!, f3: x[2]! }, attract };
    }),
  );
}

/**
 * Searches logged by two rankers that show the same results in different orders (the engine's, and a
 * fixed shuffle per query), so each result is seen at several positions and the position bias can be
 * harvested; users click by a position-based model, examining position k with probability 1/k.
 */
async function logTraffic(server: DashboardServer) {
  const rnd = mulberry32(2027);
  const lists = catalogue();
  const swapped = lists.map((docs) => [...docs].sort(() => rnd() - 0.5));
  for (let s = 0; s < SESSIONS; s += 1) {
    const q = s % QUERIES;
    const shown = (Math.floor(s / QUERIES) % 2 === 0 ? lists[q]! : swapped[q]!).slice(0, SHOWN);
    const queryId = `s${s}-q`;
    const feedback: unknown[] = [];
    shown.forEach((doc, i) => {
      const customMetadata = { position: i + 1, features: doc.features };
      feedback.push({ queryId, metadata: { resultId: doc.resultId, queryHash: `query-${q}`, userAction: 'impression', customMetadata } });
      if (rnd() < doc.attract / (i + 1)) {
        feedback.push({
          queryId,
          metadata: { resultId: doc.resultId, queryHash: `query-${q}`, userAction: 'click', customMetadata: { position: i + 1 } },
        });
      }
    });
    ok(await server.api('POST', '/api/cortex/feedback', { sessionId: `session-${s}`, feedback }), 201, 'feedback');
  }
}

/** Explicit ratings (grades 0–4 from the hidden attractiveness) of four results of every query. */
async function rateResults(server: DashboardServer) {
  for (const [q, docs] of catalogue().entries()) {
    const feedback = docs.slice(0, 4).map((doc) => ({
      queryId: `rate-${q}`,
      rating: Math.round(4 * doc.attract),
      metadata: { resultId: doc.resultId, queryHash: `query-${q}`, userAction: 'rate' },
    }));
    ok(await server.api('POST', '/api/cortex/feedback', { sessionId: `rater-${q}`, feedback }), 201, 'ratings');
  }
}

/**
 * Two clicks rankers registered (which queues their first run) and trained again over the API: two
 * versions each. Unbiased LambdaMART trains before any rating is given, IPS after: one page shows
 * the held-out NDCG@10 on ratings, the other says the window had none.
 */
async function prepare(server: DashboardServer) {
  await logTraffic(server);
  const training = server.container.learning.services.trainingService;
  for (const [modelId, debiasing] of [
    [ULM, 'unbiased-lambdamart'],
    [IPS, 'ips'],
  ] as const) {
    if (modelId === IPS) await rateResults(server);
    const config = { trainingData: 'clicks', debiasing, ...TREES };
    ok(await server.api('POST', MODELS, { modelId, name: `Clicks, ${debiasing}`, type: 'ranker', config }), 201, `register ${modelId}`);
    await training.runUntilIdle();
    ok(await server.api('POST', `${MODELS}/${modelId}/train`, { force: true }), 202, `train ${modelId}`);
    await training.runUntilIdle();
  }
  // The other modes, trained once each: naive clicks, and click-model judgments (a PBM fitted in the run).
  for (const [modelId, config] of [
    [NAIVE, { trainingData: 'clicks', debiasing: 'none', ...TREES }],
    [JUDGED, { trainingData: 'feedback', minImpressions: 5, ...TREES }],
  ] as const) {
    ok(await server.api('POST', MODELS, { modelId, name: modelId, type: 'ranker', config }), 201, `register ${modelId}`);
    await training.runUntilIdle();
  }
  const config = { trainingData: 'dataset', ...TREES };
  ok(await server.api('POST', MODELS, { modelId: LETOR, name: 'From a LETOR file', type: 'ranker', config }), 201, 'letor ranker');
  ok(
    await server.api('POST', `${MODELS}/${LETOR}/dataset`, syntheticLetor({ queries: 30, docsPerQuery: 10, features: 4, seed: 3 })),
    201,
    'upload',
  );
  await training.runUntilIdle();
}

/** Tables whose content is wider than their box (a clipped or sideways-scrolling cell), by test id. */
async function clippedTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.table-wrap'))
      .filter((wrap) => wrap.offsetParent !== null && wrap.scrollWidth > wrap.clientWidth + 1)
      .map((wrap) => wrap.querySelector('table')?.dataset.testid ?? wrap.outerHTML.slice(0, 80)),
  );
}

describe.skipIf(!chromiumPath)('the model page of rankers trained on clicks, in Chromium', { timeout: 180_000 }, () => {
  const t = useDashboardInChromium({ clock: systemClock, jobs: false }, prepare, 400_000);

  async function versionsOf(modelId: string) {
    const model = ok(await t.server.api('GET', `${MODELS}/${modelId}`), 200, 'model');
    const versions = ok(await t.server.api('GET', `${MODELS}/${modelId}/versions`), 200, 'versions').items as any[];
    expect(model.status, model.error).toBe('ready');
    return { model, versions, active: versions.find((v) => v.version === model.activeVersion)! };
  }

  async function check(w: WatchedPage) {
    expect(w.problems).toEqual([]);
    expect(await unlabelledControls(w.page)).toEqual([]);
    expect(await horizontalOverflow(w.page)).toBe(0);
    expect(await clippedTables(w.page)).toEqual([]);
  }

  /** The mode, the curve (every value of the table and a dot per value in the chart), the held-out figures and the versions: the API's. */
  async function expectTrainingOf(w: WatchedPage, modelId: string, mode: string) {
    const { versions, active } = await versionsOf(modelId);
    const training = active.metrics.training;
    const section = w.page.getByTestId('training-mode');
    await expect.poll(() => section.getByTestId('training-mode-text').textContent()).toBe(mode);
    await expect.poll(() => section.getByRole('heading', { level: 2 }).textContent()).toBe(`How v${active.version} was trained`);

    const positions = training.positionBias.positions as { position: number; clicked: number; unclicked: number | null }[];
    expect(positions.length).toBeGreaterThanOrEqual(SHOWN);
    const rows = section.getByTestId('training-curve-table').locator('tbody tr');
    expect(await rows.count()).toBe(positions.length);
    const learned = training.positionBias.source === 'learned';
    for (const [i, p] of positions.entries()) {
      const row = rows.nth(i);
      expect(await row.locator('th').textContent()).toBe(String(p.position));
      expect(await row.locator('[data-field="clicked"]').textContent()).toBe(number(p.clicked));
      if (learned) expect(await row.locator('[data-field="unclicked"]').textContent()).toBe(number(p.unclicked));
      else expect(await row.locator('[data-field="weight"]').textContent()).toBe(number(1 / Math.max(p.clicked, training.propensityClip)));
    }
    const chart = section.getByTestId('training-curve-chart');
    await chart.locator('[role="img"]').waitFor();
    const values = learned ? positions.filter((p) => p.unclicked !== null).length + positions.length : positions.length;
    expect(await chart.locator('g[aria-label="dot"] circle').count()).toBe(values);
    expect(await chart.locator('g[aria-label="x-axis label"]').textContent()).toContain('position');
    expect(await chart.locator('g[aria-label="y-axis label"]').textContent()).toContain('relative to position 1');

    const held = active.metrics.heldOut;
    expect(held.clicks.metric).toBe('ips-ndcg@10');
    const clicksRow = section.getByTestId('held-out-clicks');
    expect(await clicksRow.locator('[data-field="model"]').textContent()).toBe(number(held.clicks.model));
    expect(await clicksRow.locator('[data-field="logged"]').textContent()).toBe(number(held.clicks.logged));
    expect(await clicksRow.locator('[data-field="support"]').textContent()).toBe(
      `${integer(held.clicks.groups)} lists · ${integer(held.clicks.sessions)} sessions`,
    );
    if (held.judgments === null) {
      // No ratings: the page says so instead of a row of dashes.
      expect(await section.getByTestId('held-out-judgments').count()).toBe(0);
      expect(await section.getByTestId('no-judgments').textContent()).toContain('No ratings in the training window');
    } else {
      const row = section.getByTestId('held-out-judgments');
      expect(await row.locator('th').textContent()).toBe('NDCG@10 on ratings');
      expect(await row.locator('[data-field="model"]').textContent()).toBe(number(held.judgments.model));
      expect(await row.locator('[data-field="logged"]').textContent()).toBe(number(held.judgments.logged));
      expect(await row.locator('[data-field="support"]').textContent()).toBe(`${integer(held.judgments.queries)} queries`);
      expect(await section.getByTestId('no-judgments').count()).toBe(0);
    }

    // The versions compete on IPS-NDCG@10, and the table says so.
    const table = w.page.getByTestId('versions-table');
    expect(await table.locator('thead').textContent()).toContain('held-out IPS-NDCG@10 (clicks)');
    expect(versions.length).toBe(2);
    for (const v of versions) {
      expect(v.metrics.comparedOn.metric).toBe('ips-ndcg@10');
      expect(await table.getByTestId(`version-${v.version}`).locator('[data-field=key-metric]').textContent()).toBe(
        number(v.metrics.comparedOn.value),
      );
    }
    // Two versions retrained on the same data can score alike: the chart still gets a readable axis.
    const across = w.page.getByRole('img', { name: /across versions/ });
    const ticks = across.locator('[aria-label="y-axis tick label"] text');
    await ticks.first().waitFor();
    expect(await ticks.count()).toBeGreaterThan(1);
    return training;
  }

  it('Unbiased LambdaMART: the mode, the learned t+ and t− by position, the held-out figures, as the API has them', async () => {
    const w = await t.open(DESKTOP);
    try {
      await w.page.goto(`/models/${ULM}`);
      const training = await expectTrainingOf(w, ULM, 'Clicks · Unbiased LambdaMART');
      expect(training).toMatchObject({ data: 'clicks', debiasing: 'unbiased-lambdamart', positionBias: { source: 'learned' } });
      // Trained before the ratings: no held-out judgments.
      expect((await versionsOf(ULM)).active.metrics.heldOut.judgments).toBeNull();
      expect(await w.page.getByTestId('curve-sentence').textContent()).toContain('t+');
      // Any version can be read: picking v1 shows v1's own curve.
      const v1 = (await versionsOf(ULM)).versions.find((v) => v.version === 1)!;
      const section = w.page.getByTestId('training-mode');
      await section.getByLabel('Version').selectOption('1');
      await expect.poll(() => section.getByRole('heading', { level: 2 }).textContent()).toBe('How v1 was trained');
      const first = v1.metrics.training.positionBias.positions[1];
      const row = section.getByTestId('training-curve-table').locator('tbody tr').nth(1);
      expect(await row.locator('[data-field="clicked"]').textContent()).toBe(number(first.clicked));
      expect(await row.locator('[data-field="unclicked"]').textContent()).toBe(number(first.unclicked));
      await section.getByLabel('Version').selectOption('2');
      await screenshot(w.page, 'model-clicks-ulm-desktop');
      await w.page.getByTestId('training-mode').screenshot({ path: path.join(ARTIFACTS, 'model-clicks-ulm-section-desktop.png') });
      await check(w);
    } finally {
      await w.close();
    }
  });

  it('IPS: the mode with its clip, the harvested propensities with the clip line, the held-out figures', async () => {
    const w = await t.open(DESKTOP);
    try {
      await w.page.goto(`/models/${IPS}`);
      const training = await expectTrainingOf(w, IPS, 'Clicks · IPS (clip 0.1)');
      expect(training).toMatchObject({ data: 'clicks', debiasing: 'ips', propensityClip: 0.1, positionBias: { source: 'harvested' } });
      expect(training.positionBias.harvestedPairs).toBeGreaterThan(0);
      // Trained after the ratings: NDCG@10 on them, shown above.
      expect((await versionsOf(IPS)).active.metrics.heldOut.judgments).toMatchObject({ metric: 'ndcg@10', source: 'ratings' });
      expect(await w.page.getByTestId('curve-sentence').textContent()).toContain(
        `harvested from ${integer(training.positionBias.harvestedPairs)} (query, result) pairs`,
      );
      // The clip drawn as a labelled reference line.
      const chart = w.page.getByTestId('training-curve-chart');
      expect(await chart.locator('g[aria-label="text"]').textContent()).toBe('clip 0.1');
      await screenshot(w.page, 'model-clicks-ips-desktop');
      await check(w);
    } finally {
      await w.close();
    }
  });

  it('naive clicks, click-model judgments and an uploaded dataset say so, with no curve', async () => {
    for (const [modelId, mode, data] of [
      [NAIVE, 'Clicks · naive', 'clicks'],
      [JUDGED, 'Click-model judgments', 'feedback'],
      [LETOR, 'Uploaded dataset', 'dataset'],
    ] as const) {
      const { active } = await versionsOf(modelId);
      expect(active.metrics.training.data).toBe(data);
      const w = await t.open(DESKTOP);
      try {
        await w.page.goto(`/models/${modelId}`);
        const section = w.page.getByTestId('training-mode');
        await expect.poll(() => section.getByTestId('training-mode-text').textContent()).toBe(mode);
        // Naive clicks used no curve (all 1): nothing to draw. The other two have none.
        expect(await section.getByTestId('training-curve-table').count()).toBe(0);
        expect(await section.getByTestId('held-out-table').count()).toBe(data === 'clicks' ? 1 : 0);
        const key = data === 'clicks' ? 'held-out IPS-NDCG@10 (clicks)' : 'held-out NDCG@10';
        expect(await w.page.getByTestId('versions-table').locator('thead').textContent()).toContain(key);
        expect(await w.page.getByTestId(`version-${active.version}`).locator('[data-field=key-metric]').textContent()).toBe(
          number(active.metrics.comparedOn.value),
        );
        await w.page.getByTestId('ndcg-table').waitFor();
        await check(w);
      } finally {
        await w.close();
      }
    }
  });

  it('reads on a phone: the same numbers, the charts drawn within the screen, nothing clipped', async () => {
    for (const [modelId, mode] of [
      [ULM, 'Clicks · Unbiased LambdaMART'],
      [IPS, 'Clicks · IPS (clip 0.1)'],
    ] as const) {
      const w = await t.open(PHONE);
      try {
        await w.page.goto(`/models/${modelId}`);
        await expectTrainingOf(w, modelId, mode);
        const svg = w.page.getByTestId('training-curve-chart').locator('[role="img"]');
        expect(await svg.evaluate((node) => node.getBoundingClientRect().right)).toBeLessThanOrEqual(PHONE.width);
        const name = modelId === ULM ? 'ulm' : 'ips';
        await screenshot(w.page, `model-clicks-${name}-phone`);
        await w.page.getByTestId('training-mode').screenshot({ path: path.join(ARTIFACTS, `model-clicks-${name}-section-phone.png`) });
        await check(w);
      } finally {
        await w.close();
      }
    }
  });
});
