// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { integer, number, percent } from '../../web/src/format.js';
import { FIRST_BATCH, SECOND_BATCH } from '../analytics/support/hand-built-log.js';
import { TestClock } from '../support/test-clock.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';

/**
 * Waits until the page shows its charts, each drawn. A chart whose code is still loading is an empty
 * `.plot` placeholder; before the page's data arrives there is no `.plot` at all, so "every plot
 * drawn" alone held at once, and a click then cancelled the chart code's download (net::ERR_ABORTED).
 */
function chartsDrawn(page: Page) {
  return page.waitForFunction(() => {
    const plots = Array.from(document.querySelectorAll('.plot'));
    return plots.length > 0 && plots.every((plot) => plot.querySelector('svg, figure'));
  });
}

const chromiumPath = inject('chromiumPath');

// Issue 12: the Queries page and a query's page show the API's numbers, formatted as web/src/format.ts does.
describe.skipIf(!chromiumPath)('search analytics pages in Chromium', { timeout: 90_000 }, () => {
  let experimentId = '';
  const clock = new TestClock(Date.parse('2026-11-22T12:00:00Z'));

  const t = useDashboardInChromium(
    { clock, jobs: false },
    async (server) => {
      // Sessions A and D are exposed to an experiment before they search: it covers "shoes" (A's S1, S2 and D's S0), not "socks".
      const created = await server.api('POST', '/api/nous/ab-testing/experiments', {
        name: 'shoes-ranking',
        // With this seed A is in control and D in treatment (GrowthBook hashing): one row per variant.
        configuration: { variants: [{ id: 'control' }, { id: 'treatment' }], seed: 'coverage' },
      });
      experimentId = created.body.data.experimentId;
      expect((await server.api('POST', `/api/nous/ab-testing/experiments/${experimentId}/start`)).status).toBe(200);
      for (const unitId of ['A', 'D'])
        expect(
          (await server.api('POST', `/api/nous/ab-testing/experiments/${experimentId}/assign`, { unitId })).body.data.inExperiment,
        ).toBe(true);
      for (const submission of [...FIRST_BATCH, ...SECOND_BATCH])
        expect((await server.api('POST', '/api/cortex/feedback', submission)).status).toBe(201);
      await server.container.analytics.services.analyticsService.catchUp();
      await server.container.experiments.services.attributionService.catchUp();
    },
    180_000,
  );

  it('Queries page: totals, the table at minimum 1 search and a query page equal the API, with no console error', async () => {
    const w = await t.open(DESKTOP);
    try {
      const overview = (await t.server.api('GET', '/api/cortex/analytics/overview?interval=day')).body.data;
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
      const list = (await t.server.api('GET', '/api/cortex/analytics/queries?minSearches=1&sort=abandonment')).body.data;
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
        // The trend sparkline has one point per value of the API's trend; the change marker says
        // significant exactly when the API's Holm-corrected test does.
        const points = await row.locator('svg.sparkline polyline').getAttribute('points');
        expect(points?.trim().split(/\s+/).length).toBe(q.trend.searches.length);
        const significant = q.change.ctr.significant || q.change.abandonmentRate.significant;
        expect(await row.getByTestId('change').locator('span').getAttribute('title')).toBe(
          significant ? 'significant change (Holm-corrected)' : 'within noise',
        );
      }
      await chartsDrawn(w.page);
      expect(await unlabelledControls(w.page)).toEqual([]);
      await screenshot(w.page, 'queries-desktop');

      await w.page.getByRole('link', { name: 'running shoes' }).click();
      await w.page.getByTestId('results-table').waitFor();
      const detail = (await t.server.api('GET', '/api/cortex/analytics/queries/shoes?interval=day&model=default')).body.data;
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

      // Experiments covering this query: the section's figures equal the coverage API's.
      const coverage = (await t.server.api('GET', '/api/nous/ab-testing/queries/shoes/experiments')).body.data;
      expect(coverage.items.map((e: { experimentId: string }) => e.experimentId)).toEqual([experimentId]);
      const variants = coverage.items[0].variants as {
        variantId: string;
        searches: number;
        clickedSearches: number;
        abandonmentRate: number;
      }[];
      expect(variants.reduce((n, v) => n + v.searches, 0)).toBe(3);
      expect(variants.reduce((n, v) => n + v.clickedSearches, 0)).toBe(2); // S1 and S2 clicked, S0 not
      const section = w.page.getByTestId(`coverage-${experimentId}-0`);
      await section.waitFor();
      expect((await section.getByTestId('phase').textContent())?.trim()).toBe('0');
      expect(await section.getByText('running').count()).toBe(1);
      for (const v of variants) {
        const row = section.getByTestId(`variant-${v.variantId}`);
        expect((await row.getByTestId('searches').textContent())?.trim()).toBe(integer(v.searches));
        expect((await row.getByTestId('abandonment').textContent())?.trim()).toBe(percent(v.abandonmentRate));
      }
      expect(variants.map((v) => v.variantId)).toEqual(['control', 'treatment']);
      expect(await section.locator('tr').count()).toBe(2);
      expect(await section.getByRole('link', { name: 'shoes-ranking' }).getAttribute('href')).toBe(`/experiments/${experimentId}`);
      expect(await unlabelledControls(w.page)).toEqual([]);
      await chartsDrawn(w.page);
      await screenshot(w.page, 'query-desktop');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('a query no experiment covers explains how coverage arises; the covering experiment links to its page', async () => {
    const w = await t.open(DESKTOP);
    try {
      expect((await t.server.api('GET', '/api/nous/ab-testing/queries/socks/experiments')).body.data.items).toEqual([]);
      await w.page.goto('/queries/socks');
      await w.page.getByText('No experiment covers this query yet').waitFor();
      expect(await w.page.getByTestId('query-experiments').count()).toBe(0);
      expect(await w.page.getByText('after the session’s exposure and before the phase ends').count()).toBe(1);

      await w.page.goto('/queries/shoes');
      // Settled first (its charts' code loaded and drawn): a click during that load cancels it in Chromium (net::ERR_ABORTED).
      await chartsDrawn(w.page);
      await w.page.getByRole('link', { name: 'shoes-ranking' }).click();
      await w.page.getByRole('heading', { name: 'shoes-ranking' }).waitFor();
      expect(new URL(w.page.url()).pathname).toBe(`/experiments/${experimentId}`);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('Overview shows the last 7 days of feedback: searches and sessions equal the API, the volume chart is drawn', async () => {
    const w = await t.open(DESKTOP);
    try {
      const overview = (await t.server.api('GET', '/api/cortex/analytics/overview?interval=day')).body.data;
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

  it('Queries page and a query page with its experiments fit a phone without sideways scroll', async () => {
    const w = await t.open(PHONE);
    try {
      await w.page.goto('/queries');
      await w.page.getByTestId('total-searches').waitFor();
      await chartsDrawn(w.page);
      expect(await horizontalOverflow(w.page)).toBe(0);
      await w.page.goto('/queries/shoes');
      await w.page.getByTestId('query-experiments').waitFor();
      await chartsDrawn(w.page);
      expect(await horizontalOverflow(w.page)).toBe(0);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
