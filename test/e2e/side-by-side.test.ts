// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { simulateClickLog } from '../../src/click-models/index.js';
import { movementText } from '../../web/src/pages/queries/side-by-side-text.js';
import { sessionToItems } from '../learning/support/simulated-feedback.js';
import { TestClock } from '../support/test-clock.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import type { DashboardServer } from './support/dashboard-server.js';

const chromiumPath = inject('chromiumPath');
const QUERY = 'q0';
const sim = simulateClickLog({ model: 'pbm', seed: 11, queries: 4, docsPerQuery: 12, sessions: 900 });

/** Result ids of one side as the page lists them, top first. */
const listed = (page: Page, side: 'left' | 'right') =>
  page
    .getByTestId(`side-${side}`)
    .getByTestId('sbs-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-result-id')));

/** The query's logged results in the engine's order, as the query page lists them (independent of the side-by-side answer). */
async function loggedResults(server: DashboardServer): Promise<{ resultId: string }[]> {
  const detail = (await server.api('GET', `/api/cortex/analytics/queries/${QUERY}`)).body.data;
  return detail.results.map((r: { resultId: string }) => ({ resultId: r.resultId }));
}

/** What POST /api/nous/rank serves for those results (the production alias, else the engine's order). */
async function servedByRank(server: DashboardServer, k: number) {
  const results = await loggedResults(server);
  const res = await server.api('POST', '/api/nous/rank', { unitId: 'e2e-unit', queryId: 'e2e-search', queryHash: QUERY, results });
  expect(res.status).toBe(200);
  return { ids: res.body.data.results.slice(0, k).map((r: { resultId: string }) => r.resultId), served: res.body.data.served };
}

/** What the model's rank endpoint serves (its active version) for those results. */
async function servedByModel(server: DashboardServer, modelId: string): Promise<string[]> {
  const res = await server.api('POST', `/api/nous/learn/models/${modelId}/rank`, {
    queryHash: QUERY,
    results: await loggedResults(server),
  });
  expect(res.status).toBe(200);
  return res.body.data.results.map((r: { resultId: string }) => r.resultId);
}

/** "▲n / ▼n / new / =" of each of `mine`'s rows against `other`'s full order, as the page should print them. */
function expectedMovements(mine: string[], other: string[], k: number): string[] {
  return mine.map((id, i) => {
    const there = other.indexOf(id) + 1;
    const kind = there > k ? 'new' : there === i + 1 ? 'same' : there > i + 1 ? 'up' : 'down';
    return movementText({ kind, by: kind === 'up' || kind === 'down' ? Math.abs(there - (i + 1)) : 0, otherRank: there });
  });
}

// Issue 25 §2: the side-by-side view's lists equal what `rank` serves for each side.
describe.skipIf(!chromiumPath)('query side-by-side in Chromium', { timeout: 120_000 }, () => {
  const clock = new TestClock(Date.parse('2026-11-22T12:00:00Z'));
  const t = useDashboardInChromium({ clock, jobs: false }, async (server) => {
    const start = clock.now() - 900 * 60_000 - 3_600_000;
    const items = sim.sessions.flatMap((s, i) => sessionToItems(s, `search-${i}`, start + i * 60_000));
    for (let i = 0; i < items.length; i += 1000)
      expect((await server.api('POST', '/api/cortex/feedback', { sessionId: 'sim', feedback: items.slice(i, i + 1000) })).status).toBe(201);
    await server.container.analytics.services.analyticsService.catchUp();
    const models = server.container.learning.services.trainingService;
    expect((await server.api('POST', '/api/nous/learn/models', { modelId: 'default', name: 'default', type: 'click_model' })).status).toBe(
      201,
    );
    await models.runUntilIdle();
    const ranker = {
      modelId: 'ranker-a',
      name: 'ranker a',
      type: 'ranker',
      config: { clickModel: 'default', numTrees: 20, minDataInLeaf: 2, minImpressions: 10, seed: 3 },
    };
    expect((await server.api('POST', '/api/nous/learn/models', ranker)).status).toBe(201);
    await models.runUntilIdle();
    expect((await server.api('GET', '/api/nous/learn/models/ranker-a')).body.data.status).toBe('ready');
  });

  it('desktop: engine order beside the trained ranker, then beside the production alias, each equal to what rank serves', async () => {
    const w = await t.open(DESKTOP);
    try {
      // No alias yet: rank serves the engine's order; the page's default right-hand side is the trained ranker.
      const original = await servedByRank(t.server, 10);
      expect(original.served).toEqual({ source: 'original' });
      const model = await servedByModel(t.server, 'ranker-a');
      expect(model.slice(0, 10)).not.toEqual(original.ids);

      await w.page.goto(`/queries/${QUERY}`);
      await w.page.getByRole('link', { name: 'Compare rankers side by side on this query →' }).click();
      await w.page.getByTestId('side-right').getByTestId('sbs-row').first().waitFor();
      expect(new URL(w.page.url()).pathname).toBe(`/queries/${QUERY}/side-by-side`);
      expect(await w.page.getByTestId('side-left').getByRole('heading').textContent()).toBe('Left Engine order');
      expect(await w.page.getByTestId('side-right').getByRole('heading').textContent()).toBe('Right Ranker ranker-a v1');
      expect(await listed(w.page, 'left')).toEqual(original.ids);
      expect(await listed(w.page, 'right')).toEqual(model.slice(0, 10));
      // What moved: every right-hand row's marker read against the engine's full order.
      const logged = (await loggedResults(t.server)).map((r) => r.resultId);
      expect(await w.page.getByTestId('side-right').getByTestId('movement').allTextContents()).toEqual(
        expectedMovements(model.slice(0, 10), logged, 10),
      );
      expect(await w.page.getByTestId('side-left').getByTestId('movement').allTextContents()).toEqual(
        expectedMovements(original.ids, model, 10),
      );
      expect(await unlabelledControls(w.page)).toEqual([]);
      expect(await horizontalOverflow(w.page)).toBe(0);
      // Two columns: the right-hand list starts level with the left one, beside it.
      const [leftBox, rightBox] = [
        await w.page.getByTestId('side-left').boundingBox(),
        await w.page.getByTestId('side-right').boundingBox(),
      ];
      expect(rightBox!.y).toBe(leftBox!.y);
      expect(rightBox!.x).toBeGreaterThan(leftBox!.x + leftBox!.width - 1);
      await screenshot(w.page, 'side-by-side-desktop');
      // UPDATE_SCREENSHOTS=1 also puts the first screen in docs/screenshots for docs/dashboard.md.
      if (process.env.UPDATE_SCREENSHOTS === '1') await w.page.screenshot({ path: 'docs/screenshots/query-side-by-side-desktop.png' });

      // Ship it to production: rank now serves the alias, and the picker compares against it.
      const moved = await t.server.api('PUT', '/api/nous/learn/aliases/production', { modelId: 'ranker-a', reason: 'e2e' });
      expect(moved.status).toBe(200);
      const production = await servedByRank(t.server, 5);
      expect(production.served).toMatchObject({ source: 'alias', alias: 'production', modelId: 'ranker-a', version: 1 });
      await w.page.reload();
      await w.page.getByLabel('Right ranker').selectOption('alias:production');
      await w.page.getByLabel('Results per side').selectOption('5');
      await expect
        .poll(() => w.page.getByTestId('side-right').getByRole('heading').textContent())
        .toBe('Right Alias production: ranker-a v1');
      await expect.poll(() => listed(w.page, 'right')).toEqual(production.ids);
      expect(await listed(w.page, 'left')).toEqual(original.ids.slice(0, 5));
      expect(new URL(w.page.url()).searchParams.get('right')).toBe('alias:production');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('phone: the two lists stack, nothing scrolls sideways, and they still equal what rank serves', async () => {
    const w = await t.open(PHONE);
    try {
      const production = await servedByRank(t.server, 10);
      expect(production.served.source).toBe('alias');
      await w.page.goto(`/queries/${QUERY}/side-by-side?left=original&right=alias:production`);
      await w.page.getByTestId('side-right').getByTestId('sbs-row').first().waitFor();
      expect(await listed(w.page, 'right')).toEqual(production.ids);
      expect(await listed(w.page, 'left')).toEqual((await loggedResults(t.server)).slice(0, 10).map((r) => r.resultId));
      const [leftBox, rightBox] = [
        await w.page.getByTestId('side-left').boundingBox(),
        await w.page.getByTestId('side-right').boundingBox(),
      ];
      expect(rightBox!.y).toBeGreaterThanOrEqual(leftBox!.y + leftBox!.height);
      expect(await horizontalOverflow(w.page)).toBe(0);
      // No row is cut: each fits its list's width.
      const clipped = await w.page
        .getByTestId('sbs-row')
        .evaluateAll((rows) => rows.filter((r) => r.scrollWidth > r.clientWidth).map((r) => r.getAttribute('data-result-id')));
      expect(clipped).toEqual([]);
      await screenshot(w.page, 'side-by-side-phone');

      // Rolled back to the engine's order: rank serves the original order, and so does the alias's side.
      expect((await t.server.api('DELETE', '/api/nous/learn/aliases/production?reason=e2e%20rollback')).status).toBe(200);
      const rolledBack = await servedByRank(t.server, 10);
      expect(rolledBack.served).toEqual({ source: 'original' });
      await w.page.reload();
      await expect
        .poll(() => w.page.getByTestId('side-right').getByRole('heading').textContent())
        .toBe('Right Alias production: engine order (it serves no model)');
      expect(await listed(w.page, 'right')).toEqual(rolledBack.ids);
      expect(await w.page.getByTestId('side-right').getByTestId('movement').allTextContents()).toEqual(Array(10).fill('='));

      // A ranker that does not exist is refused in words (the API's 404), not drawn as an empty list.
      await w.page.goto(`/queries/${QUERY}/side-by-side?right=model:nope`);
      await w.page.getByText('These rankers cannot be compared on this query').waitFor();
      expect(await w.page.getByTestId('error-message').textContent()).toBe('model nope not found');
      // The one failed call is that answer (and the console's line for it).
      expect(w.problems.filter((p) => p.startsWith('HTTP'))).toEqual([expect.stringMatching(/^HTTP 404: GET .*\/side-by-side\?/)]);
      expect(w.problems.filter((p) => !p.startsWith('HTTP') && !p.includes('status of 404'))).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
