// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { mulberry32 } from '../../src/random/index.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls, type WatchedPage } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import type { DashboardServer } from './support/dashboard-server.js';

const chromiumPath = inject('chromiumPath');
const EXP = '/api/nous/ab-testing/experiments';
const MODELS = '/api/nous/learn/models';
const ALIASES = '/api/nous/learn/aliases';
const RANKER = 'ranker-e2e';
// UPDATE_SCREENSHOTS=1 also copies these (the first screen of each) to docs/screenshots for docs/dashboard.md.
const FOR_DOCS = new Set(['conclude-ship-desktop', 'production-desktop', 'production-phone', 'ship-version-desktop']);

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (process.env.UPDATE_SCREENSHOTS === '1' && FOR_DOCS.has(name)) {
    fs.mkdirSync('docs/screenshots', { recursive: true });
    await page.screenshot({ path: path.join('docs/screenshots', `${name}.png`) });
  }
}

function ok<T = any>(res: { status: number; body: any }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body.data as T;
}

/** Six seeded features per result, the shape the ranker was trained on (LETOR features 1–6). */
function results(seed: number, n = 8) {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({
    resultId: `doc-${i}`,
    features: Object.fromEntries(Array.from({ length: 6 }, (_, j) => [String(j + 1), Math.round(rnd() * 1000) / 1000])),
  }));
}

/** Units rank one query each, see the list (an impression per result) and click the top result half of the time. */
async function traffic(server: DashboardServer, prefix: string, units: number) {
  const { api } = server;
  const rnd = mulberry32(25);
  for (let u = 0; u < units; u += 1) {
    const unitId = `${prefix}-${u}`;
    const queryId = `${unitId}-q`;
    const served = ok(await api('POST', '/api/nous/rank', { unitId, queryId, results: results(u) }), 200, 'rank');
    const shown = (served.results as { resultId: string }[]).slice(0, 5);
    const feedback: unknown[] = shown.map((r, i) => ({
      queryId,
      metadata: { resultId: r.resultId, queryHash: 'tent', userAction: 'impression', customMetadata: { position: i + 1 } },
    }));
    if (rnd() < 0.5) {
      const meta = { resultId: shown[0]!.resultId, queryHash: 'tent', userAction: 'click', customMetadata: { position: 1 } };
      feedback.push({ queryId, metadata: meta });
    }
    ok(await api('POST', '/api/cortex/feedback', { sessionId: unitId, feedback }), 201, 'feedback');
  }
}

/**
 * A ranker trained twice (v1, v2) from a seeded LETOR file; `production` on v1; a running A/B test
 * of the engine's order against v2 that promotes to `production`, with a little seeded traffic.
 */
async function prepare(server: DashboardServer): Promise<string> {
  const { api } = server;
  const training = server.container.learning.services.trainingService;
  ok(
    await api('POST', MODELS, {
      modelId: RANKER,
      name: 'LambdaMART ranker',
      type: 'ranker',
      config: { trainingData: 'dataset', numTrees: 30, learningRate: 0.1, numLeaves: 15, minDataInLeaf: 5, seed: 7 },
    }),
    201,
    'ranker',
  );
  ok(
    await api('POST', `${MODELS}/${RANKER}/dataset`, syntheticLetor({ queries: 50, docsPerQuery: 12, features: 6, seed: 5 })),
    201,
    'upload',
  );
  await training.runUntilIdle();
  ok(await api('POST', `${MODELS}/${RANKER}/train`, { force: true }), 202, 'retrain');
  await training.runUntilIdle();
  ok(await api('PUT', `${ALIASES}/production`, { modelId: RANKER, version: 1, reason: 'baseline from offline evaluation' }), 200, 'alias');
  const experiment = ok(
    await api('POST', EXP, {
      name: 'ranker v2 vs engine order',
      configuration: {
        variants: [
          { id: 'engine', name: 'Engine order' },
          { id: 'ranker', name: 'Ranker v2', model: { modelId: RANKER, version: 2 } },
        ],
        targetMetrics: ['ctr'],
        seed: 'ship-e2e',
        promote: { alias: 'production' },
      },
    }),
    201,
    'experiment',
  );
  ok(await api('POST', `${EXP}/${experiment.experimentId}/start`, {}), 200, 'start');
  await traffic(server, 'unit', 40);
  return experiment.experimentId;
}

describe.skipIf(!chromiumPath)('ship and roll back from the dashboard in Chromium', { timeout: 120_000 }, () => {
  let experimentId = '';
  const t = useDashboardInChromium({ clock: systemClock, jobs: false }, async (server) => {
    experimentId = await prepare(server);
  });
  const alias = async (name: string) => ok(await t.server.api('GET', `${ALIASES}/${name}`), 200, `GET alias ${name}`);
  const rank = async (unitId: string) =>
    ok(await t.server.api('POST', '/api/nous/rank', { unitId, queryId: `${unitId}-q`, results: results(99) }), 200, 'rank').served;

  async function check(w: WatchedPage, size: 'desktop' | 'phone') {
    expect(w.problems).toEqual([]);
    expect(await unlabelledControls(w.page)).toEqual([]);
    if (size === 'phone') expect(await horizontalOverflow(w.page)).toBe(0);
  }
  /** How far an open dialog's content reaches past its own right edge (a dialog does not widen the page, so horizontalOverflow misses it). */
  const dialogOverflow = (page: Page) =>
    page.evaluate(() => {
      const dialog = document.querySelector('dialog[open]');
      if (!dialog) return 0;
      const edge = dialog.getBoundingClientRect().right;
      return Math.max(0, ...Array.from(dialog.querySelectorAll('*')).map((el) => Math.ceil(el.getBoundingClientRect().right - edge)));
    });

  it('(a) Conclude names the alias move before confirming; afterwards the alias serves the winner and the page says so', async () => {
    const w = await t.open(DESKTOP);
    try {
      await w.page.goto(`/experiments/${experimentId}`);
      await w.page.getByRole('button', { name: 'Conclude…' }).click();
      const dialog = w.page.getByRole('dialog');
      const sentence = dialog.getByTestId('promotion-sentence');
      // A winner without a model moves nothing; neither does a decision other than ship.
      await dialog.getByLabel('Winner').selectOption('engine');
      await expect.poll(() => sentence.textContent()).toContain('“Engine order” has no model');
      await dialog.getByLabel('rollback', { exact: true }).check();
      await expect.poll(() => sentence.textContent()).toContain('No alias moves');
      await dialog.getByLabel('ship', { exact: true }).check();
      await dialog.getByLabel('Winner').selectOption('ranker');
      await expect.poll(() => sentence.textContent()).toBe(`The “production” alias moves from v1 of ${RANKER} to v2 of ${RANKER}.`);
      expect(await alias('production')).toMatchObject({ modelId: RANKER, version: 1 });
      await shot(w.page, 'conclude-ship-desktop');
      await dialog.getByRole('button', { name: 'Conclude', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      const experiment = ok(await t.server.api('GET', `${EXP}/${experimentId}`), 200, 'experiment');
      expect(experiment.conclusion.promotion).toMatchObject({ alias: 'production', modelId: RANKER, version: 2 });
      expect(await alias('production')).toMatchObject({ modelId: RANKER, version: 2, experimentId });
      await expect.poll(() => w.page.getByTestId('conclusion-summary').textContent()).toContain(experiment.conclusion.summary);
      expect(experiment.conclusion.summary).toBe(`alias "production" moved from v1 of ${RANKER} to v2 of ${RANKER}`);
      expect(await w.page.getByTestId('conclusion-promotion').textContent()).toBe('See what serves production, or roll it back');
      await shot(w.page, 'concluded-desktop');
      await check(w, 'desktop');

      // The overview says what serves production and lists the decision.
      await w.page.goto('/');
      await expect.poll(() => w.page.getByTestId('panel-alias-production').textContent()).toContain(`v2 of ${RANKER}`);
      await expect.poll(() => w.page.getByTestId(`decision-${experimentId}`).textContent()).toContain('Shipped, winner “Ranker v2”');
      await shot(w.page, 'overview-production-desktop');
      await check(w, 'desktop');
    } finally {
      await w.close();
    }
  });

  it('(b) rolls back from the production view to an earlier version; rank then serves that version', async () => {
    const w = await t.open(DESKTOP);
    try {
      await w.page.goto('/production');
      const card = w.page.getByTestId('alias-production');
      await expect.poll(() => card.getByTestId('alias-serves').textContent()).toBe(`Serves v2 of ${RANKER}`);
      await expect.poll(() => card.getByTestId('alias-event').count()).toBe(2);
      await shot(w.page, 'production-desktop');
      await card.getByRole('button', { name: `↶ Serve v1 of ${RANKER} again…` }).click();
      const dialog = w.page.getByRole('dialog');
      expect(await dialog.getByTestId('move-preview').textContent()).toContain(
        `now serves v2 of ${RANKER}; afterwards it serves v1 of ${RANKER}`,
      );
      // The reason is required: confirming without one moves nothing.
      await dialog.getByRole('button', { name: 'Move alias' }).click();
      expect(await dialog.isVisible()).toBe(true);
      expect(await alias('production')).toMatchObject({ version: 2 });
      await dialog.getByLabel(/^Reason/).fill('v2 lowers conversions on mobile');
      await dialog.getByRole('button', { name: 'Move alias' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const now = await alias('production');
      expect(now).toMatchObject({ modelId: RANKER, version: 1, reason: 'v2 lowers conversions on mobile', experimentId: null });
      expect(await rank('outside-1')).toMatchObject({ source: 'alias', alias: 'production', modelId: RANKER, version: 1 });
      await expect.poll(() => card.getByTestId('alias-serves').textContent()).toBe(`Serves v1 of ${RANKER}`);
      await expect.poll(() => card.getByTestId('alias-event').count()).toBe(3);
      const newest = card.getByTestId('alias-event').first();
      expect(await newest.textContent()).toContain(`${now.updatedBy} moved it from v2 of ${RANKER} to v1 of ${RANKER}`);
      expect(await newest.textContent()).toContain('Reason: v2 lowers conversions on mobile');
      await check(w, 'desktop');
    } finally {
      await w.close();
    }
  });

  it('(b) on a phone, rolls back to the engine’s original order; rank then serves the original order', async () => {
    const w = await t.open(PHONE);
    try {
      await w.page.goto('/production');
      const card = w.page.getByTestId('alias-production');
      await expect.poll(() => card.getByTestId('alias-event').count()).toBe(3);
      await card.getByTestId('serve-original').click();
      const dialog = w.page.getByRole('dialog');
      await dialog.getByLabel(/^Reason/).fill('back to the engine while we investigate');
      await shot(w.page, 'production-rollback-phone');
      expect(await dialogOverflow(w.page)).toBe(0);
      await dialog.getByRole('button', { name: 'Serve the original order' }).click();
      await dialog.waitFor({ state: 'hidden' });

      expect(await alias('production')).toMatchObject({ modelId: null, version: null, reason: 'back to the engine while we investigate' });
      expect((await rank('outside-2')).source).toBe('original');
      await expect.poll(() => card.getByTestId('alias-serves').textContent()).toBe("Serves the engine's original order");
      const events = ok(await t.server.api('GET', `${ALIASES}/production/events?limit=10`), 200, 'events').items;
      expect(events.at(-1)).toMatchObject({ from: { modelId: RANKER, version: 1 }, to: null });
      await expect.poll(() => card.getByTestId('alias-event').first().textContent()).toContain("to the engine's original order");
      await shot(w.page, 'production-phone');
      await check(w, 'phone');
    } finally {
      await w.close();
    }
  });

  it('(c) ships a version from the ranker page with the no-evidence confirmation', async () => {
    const w = await t.open(DESKTOP);
    try {
      await w.page.goto(`/models/${RANKER}`);
      await w.page.getByTestId('ship-version').click();
      const dialog = w.page.getByRole('dialog');
      await dialog.getByLabel('Alias to point').selectOption({ label: 'A new alias…' });
      await dialog.getByLabel('New alias name').fill('staging');
      await dialog.getByLabel('Version').selectOption('1');
      // v1 served no experiment: the warning says so; v2 was the tested arm, and the dialog names its experiment.
      await expect.poll(() => dialog.getByTestId('evidence').textContent()).toContain(`No online evidence exists yet for v1 of ${RANKER}`);
      await dialog.getByLabel('Version').selectOption('2');
      await expect.poll(() => dialog.getByTestId('evidence').textContent()).toContain('ranker v2 vs engine order');
      await dialog.getByLabel('Version').selectOption('1');
      expect(await dialog.getByTestId('ship-preview').textContent()).toBe(
        `staging moves from the engine's original order to v1 of ${RANKER}.`,
      );
      await dialog.getByLabel(/^Reason/).fill('staging tries v1 before an experiment');
      await shot(w.page, 'ship-version-desktop');
      await dialog.getByRole('button', { name: 'Ship', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await alias('staging')).toMatchObject({ modelId: RANKER, version: 1, reason: 'staging tries v1 before an experiment' });
      await expect.poll(() => w.page.getByTestId('shipped').textContent()).toBe(`“staging” now serves v1 of ${RANKER}.`);
      await expect.poll(() => w.page.getByTestId('model-alias-staging').textContent()).toContain(`v1 of ${RANKER}`);
      await check(w, 'desktop');
    } finally {
      await w.close();
    }
  });

  it('(c) the ship dialog and the overview fit a phone', async () => {
    const w = await t.open(PHONE);
    try {
      await w.page.goto('/');
      await expect.poll(() => w.page.getByTestId('panel-alias-staging').textContent()).toContain(`v1 of ${RANKER}`);
      await shot(w.page, 'overview-production-phone');
      await check(w, 'phone');
      await w.page.goto(`/models/${RANKER}`);
      await w.page.getByTestId('ship-version').click();
      const dialog = w.page.getByRole('dialog');
      await expect.poll(() => dialog.getByTestId('evidence').textContent()).toContain('ranker v2 vs engine order');
      await shot(w.page, 'ship-version-phone');
      expect(await dialogOverflow(w.page)).toBe(0);
      await check(w, 'phone');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await w.close();
    }
  });

  it('(d) an experiment without a promotion target: Conclude says no alias moves, and the alias picked in the dialog moves', async () => {
    const second = ok(
      await t.server.api('POST', EXP, {
        name: 'ranker v1 vs engine order',
        configuration: {
          variants: [
            { id: 'engine', name: 'Engine order' },
            { id: 'ranker', name: 'Ranker v1', model: { modelId: RANKER, version: 1 } },
          ],
          seed: 'ship-e2e-2',
        },
      }),
      201,
      'second experiment',
    );
    ok(await t.server.api('POST', `${EXP}/${second.experimentId}/start`, {}), 200, 'start');
    await traffic(t.server, 'second', 20);
    const before = await alias('production');
    const w = await t.open(PHONE);
    try {
      await w.page.goto(`/experiments/${second.experimentId}`);
      await w.page.getByRole('button', { name: 'Conclude…' }).click();
      const dialog = w.page.getByRole('dialog');
      const sentence = dialog.getByTestId('promotion-sentence');
      await dialog.getByLabel('Winner').selectOption('ranker');
      await expect.poll(() => sentence.textContent()).toContain('No alias moves: this experiment has no promotion target — choose one.');
      await dialog.getByLabel('Alias to move').selectOption('production');
      await expect
        .poll(() => sentence.textContent())
        .toBe(
          `The “production” alias moves from ${before.modelId === null ? "the engine's original order" : `v${before.version} of ${RANKER}`} to v1 of ${RANKER}.`,
        );
      await shot(w.page, 'conclude-pick-alias-phone');
      expect(await dialogOverflow(w.page)).toBe(0);
      await dialog.getByRole('button', { name: 'Conclude', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await alias('production')).toMatchObject({ modelId: RANKER, version: 1, experimentId: second.experimentId });
      const experiment = ok(await t.server.api('GET', `${EXP}/${second.experimentId}`), 200, 'experiment');
      expect(experiment.conclusion.promotion).toMatchObject({ alias: 'production', modelId: RANKER, version: 1 });
      await expect.poll(() => w.page.getByTestId('conclusion-summary').textContent()).toContain(experiment.conclusion.summary);
      await check(w, 'phone');
    } finally {
      await w.close();
    }
  });
});
