// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { integer, number, percent } from '../../web/src/format.js';
import { FIRST_BATCH, SECOND_BATCH } from '../analytics/hand-built-log.js';
import { TestClock } from '../support/test-clock.js';
import {
  DESKTOP,
  PHONE,
  horizontalOverflow,
  launchChromium,
  screenshot,
  unlabelledControls,
  watchedPage,
  type LaunchedBrowser,
} from './support/browser.js';
import { startDashboardServer, type DashboardServer } from './support/dashboard-server.js';

const chromiumPath = inject('chromiumPath');

// Issue 12: the Queries page and a query's page show the API's numbers, formatted as web/src/format.ts does.
describe.skipIf(!chromiumPath)('search analytics pages in Chromium', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let launched: LaunchedBrowser;
  let browser: Browser;
  const clock = new TestClock(Date.parse('2026-11-22T12:00:00Z'));

  beforeAll(async () => {
    server = await startDashboardServer({ clock, jobs: false });
    for (const submission of [...FIRST_BATCH, ...SECOND_BATCH])
      expect((await server.api('POST', '/api/cortex/feedback', submission)).status).toBe(201);
    await server.container.analytics.services.analyticsService.catchUp();
    launched = await launchChromium(chromiumPath!);
    browser = launched.browser;
  }, 180_000);
  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  it('Queries page: totals, the table at minimum 1 search and a query page equal the API, with no console error', async () => {
    const w = await watchedPage(browser, DESKTOP, server.url);
    try {
      const overview = (await server.api('GET', '/api/cortex/analytics/overview?interval=day')).body.data;
      await w.page.goto('/queries');
      await w.page.getByTestId('total-searches').waitFor();
      const text = async (id: string) => (await w.page.getByTestId(id).first().textContent())?.trim();
      expect(await text('total-searches')).toBe(integer(overview.totals.searches));
      expect(await text('total-sessions')).toBe(integer(overview.totals.sessions));
      expect(await text('total-queries')).toBe(integer(overview.totals.distinctQueries));
      expect(await text('total-ctr')).toBe(percent(overview.totals.ctr));
      expect(await text('total-abandonment')).toBe(percent(overview.totals.abandonmentRate));
      expect(await text('total-first-click')).toBe(number(overview.totals.meanFirstClickPosition));
      expect(await text('total-mrr')).toBe(number(overview.totals.mrr));
      expect(await text('total-conversions')).toBe(integer(overview.totals.conversions));
      expect(await text('total-zero')).toBe(percent(overview.totals.zeroResultRate));
      expect(overview.totals.searches).toBe(6); // the hand-built log's S0…S5, all in the last 7 days

      await w.page.getByLabel('Minimum searches').fill('1');
      await w.page.getByLabel('Sort by').selectOption('abandonment');
      const list = (await server.api('GET', '/api/cortex/analytics/queries?minSearches=1&sort=abandonment')).body.data;
      expect(list.items.length).toBe(2);
      await w.page.getByTestId('query-shoes').waitFor();
      const rows = w.page.getByTestId('queries-table').locator('tbody tr');
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-testid')))).toEqual(
        list.items.map((q: { queryHash: string }) => `query-${q.queryHash}`),
      );
      for (const q of list.items) {
        const row = w.page.getByTestId(`query-${q.queryHash}`);
        expect((await row.getByTestId('searches').textContent())?.trim()).toBe(integer(q.searches));
        expect((await row.getByTestId('ctr').textContent())?.trim()).toBe(percent(q.ctr));
        expect((await row.getByTestId('abandonment').textContent())?.trim()).toBe(percent(q.abandonmentRate));
        expect((await row.getByTestId('first-click').textContent())?.trim()).toBe(number(q.meanFirstClickPosition));
      }
      await w.page.waitForFunction(() => Array.from(document.querySelectorAll('.plot')).every((plot) => plot.querySelector('svg, figure')));
      expect(await unlabelledControls(w.page)).toEqual([]);
      await screenshot(w.page, 'queries-desktop');

      await w.page.getByRole('link', { name: 'running shoes' }).click();
      await w.page.getByTestId('results-table').waitFor();
      const detail = (await server.api('GET', '/api/cortex/analytics/queries/shoes?interval=day&model=default')).body.data;
      expect((await w.page.getByTestId('q-searches').textContent())?.trim()).toBe(integer(detail.figures.searches));
      expect((await w.page.getByTestId('q-ctr').textContent())?.trim()).toBe(percent(detail.figures.ctr));
      for (const r of detail.results) {
        const row = w.page.getByTestId(`result-${r.resultId}`);
        expect((await row.getByTestId('impressions').textContent())?.trim()).toBe(integer(r.impressions));
        expect((await row.getByTestId('clicks').textContent())?.trim()).toBe(integer(r.clicks));
        expect((await row.getByTestId('ctr').textContent())?.trim()).toBe(percent(r.ctr));
        expect((await row.getByTestId('mean-position').textContent())?.trim()).toBe(number(r.meanPosition));
        expect((await row.getByTestId('relevance').textContent())?.trim()).toBe(number(r.relevance));
      }
      await w.page.waitForFunction(() => Array.from(document.querySelectorAll('.plot')).every((plot) => plot.querySelector('svg, figure')));
      await screenshot(w.page, 'query-desktop');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('Overview shows the last 7 days of feedback: searches and sessions equal the API, the volume chart is drawn', async () => {
    const w = await watchedPage(browser, DESKTOP, server.url);
    try {
      const overview = (await server.api('GET', '/api/cortex/analytics/overview?interval=day')).body.data;
      await w.page.goto('/');
      await w.page.getByTestId('volume-totals').waitFor();
      expect((await w.page.getByTestId('volume-searches').textContent())?.trim()).toBe(integer(overview.totals.searches));
      expect((await w.page.getByTestId('volume-sessions').textContent())?.trim()).toBe(integer(overview.totals.sessions));
      await expect.poll(() => w.page.locator('figure .plot svg').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('Queries page fits a phone without sideways scroll', async () => {
    const w = await watchedPage(browser, PHONE, server.url);
    try {
      await w.page.goto('/queries');
      await w.page.getByTestId('total-searches').waitFor();
      await w.page.waitForFunction(() => Array.from(document.querySelectorAll('.plot')).every((plot) => plot.querySelector('svg, figure')));
      expect(await horizontalOverflow(w.page)).toBe(0);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
