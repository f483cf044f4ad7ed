// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chance, integer, interval, number, pValue, readableSummary, scaled } from '../../web/src/format.js';
import { TestClock } from '../support/test-clock.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls, watchedPage } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import { startDashboardServer, type DashboardServer } from './support/dashboard-server.js';
import { seed, type Seeded } from './support/seed.js';

const chromiumPath = inject('chromiumPath');
const EXP = '/api/nous/ab-testing/experiments';
// UPDATE_SCREENSHOTS=1 also copies these to docs/screenshots for the README and docs/dashboard.md.
const FOR_README = new Set(['experiment-desktop', 'overview-desktop', 'model-ranker-desktop', 'model-click-desktop', 'experiment-phone']);

describe.skipIf(!chromiumPath)('dashboard in Chromium', { timeout: 90_000 }, () => {
  let seeded: Seeded;
  const clock = new TestClock(Date.parse('2026-11-19T08:00:00Z'));

  const t = useDashboardInChromium(
    { clock },
    async (server) => {
      seeded = await seed(server, clock);
      clock.set(Date.parse('2026-11-22T09:00:00Z'));
    },
    180_000,
  );

  const { open } = t;
  const settle = (page: Page) => page.waitForLoadState('networkidle');

  const pages = () => [
    { name: 'overview', path: '/', ready: (p: Page) => p.getByTestId(`running-${seeded.running.experimentId}`).locator('.headline') },
    { name: 'experiments', path: '/experiments', ready: (p: Page) => p.getByRole('link', { name: seeded.created.name }) },
    { name: 'experiment', path: `/experiments/${seeded.running.experimentId}`, ready: (p: Page) => p.getByTestId('power-ctr') },
    { name: 'experiment-created', path: `/experiments/${seeded.created.experimentId}`, ready: (p: Page) => p.getByTestId('audit-log') },
    { name: 'new-experiment', path: '/experiments/new', ready: (p: Page) => p.getByRole('button', { name: 'Create experiment' }) },
    { name: 'models', path: '/models', ready: (p: Page) => p.getByTestId('model-ltr-e2e') },
    { name: 'model-click', path: '/models/pbm-e2e', ready: (p: Page) => p.getByTestId('version-2') },
    { name: 'model-ranker', path: '/models/ltr-e2e', ready: (p: Page) => p.getByTestId('ndcg-table') },
    { name: 'feedback', path: '/feedback', ready: (p: Page) => p.getByTestId('feedback-table') },
    { name: 'settings', path: '/settings', ready: (p: Page) => p.getByTestId('server-facts') },
    { name: 'not-found', path: '/no/such/page', ready: (p: Page) => p.getByRole('heading', { name: 'No such page' }) },
  ];

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`every page renders its data at ${viewport.width}×${viewport.height}: no console error, no failed request, no unlabelled control${size === 'phone' ? ', no sideways scroll' : ''}`, async () => {
      const w = await open(viewport);
      try {
        for (const spec of pages()) {
          await w.page.goto(spec.path);
          await spec.ready(w.page).first().waitFor({ state: 'visible', timeout: 20_000 });
          await settle(w.page);
          // Charts load on demand; wait until each one has drawn.
          await w.page.waitForFunction(() =>
            Array.from(document.querySelectorAll('.plot')).every((plot) => plot.querySelector('svg, figure')),
          );
          const file = await screenshot(w.page, `${spec.name}-${size}`);
          if (process.env.UPDATE_SCREENSHOTS === '1' && FOR_README.has(`${spec.name}-${size}`)) {
            // What the viewport shows, not the whole page: the docs show first screens.
            fs.mkdirSync('docs/screenshots', { recursive: true });
            await w.page.screenshot({ path: path.join('docs/screenshots', path.basename(file)) });
          }
          expect(w.problems, spec.path).toEqual([]);
          expect(await unlabelledControls(w.page), spec.path).toEqual([]);
          if (size === 'phone') expect(await horizontalOverflow(w.page), spec.path).toBe(0);
        }
      } finally {
        await w.close();
      }
    });
  }

  it('shows the same numbers as the API: lifts, intervals, p-values, counts, summary, model metrics', async () => {
    const id = seeded.running.experimentId;
    const results = (await t.server.api('GET', `${EXP}/${id}/results`)).body.data;
    const w = await open();
    try {
      await w.page.goto(`/experiments/${id}`);
      for (const metric of results.metrics) {
        for (const v of metric.variants) {
          const row = w.page.getByTestId(`row-${metric.metric}-${v.variantId}`);
          await expect.poll(() => row.locator('[data-field=units]').textContent()).toBe(integer(v.units));
          expect(await row.locator('[data-field=value]').textContent()).toBe(number(v.value));
          const c = metric.comparisons.find((x: { variantId: string }) => x.variantId === v.variantId);
          if (!c) continue;
          // Every number of the row is on the results' one scale; the other scale's estimate is labelled.
          const s = results.scale;
          expect(await row.locator('[data-field=estimate]').textContent()).toBe(scaled(s, c.estimate, true));
          expect(await row.locator('[data-field=interval]').textContent()).toBe(interval(c.interval, (x) => scaled(s, x)));
          expect(await row.locator('[data-field=pValue]').textContent()).toBe(pValue(c.pValue));
          expect(await row.locator('[data-field=adjustedPValue]').textContent()).toBe(
            pValue(c.adjustedPValue) + interval(c.adjustedInterval, (x) => scaled(s, x)),
          );
          expect(await row.locator('[data-field=otherScale]').textContent()).toBe(
            `${c.otherScale.scale}: ${scaled(c.otherScale.scale, c.otherScale.estimate, true)}`,
          );
          expect(await row.locator('[data-field=chanceToBeatControl]').textContent()).toBe(chance(c.chanceToBeatControl));
          const verdict = await row.locator('[data-field=verdict]').textContent();
          expect(verdict).toContain(!c.significant ? 'not significant' : c.improved ? 'significant, better' : 'significant, worse');
        }
      }
      // The seeded effect is large: the page must say so in words, not only in colour.
      const ctr = results.metrics.find((m: { metric: string }) => m.metric === 'ctr').comparisons[0];
      expect(ctr.significant).toBe(true);
      // The API's sentence, with its metric keys in words.
      const metricKeys = results.metrics.map((m: { metric: string }) => m.metric);
      expect(await w.page.getByTestId('summary').textContent()).toBe(readableSummary(results.summary, metricKeys));
      expect(await w.page.getByTestId('summary').textContent()).toContain('click-through rate');
      expect(results.scale).toBe('relative');
      expect(await w.page.getByTestId('results-scale').textContent()).toContain('relative scale');
      expect(await w.page.getByTestId('srm-banner').textContent()).toContain(results.srm.passed ? 'Sample ratio check passed' : 'mismatch');
      // The forest plot and one cumulative chart per metric, drawn once the chart code has loaded.
      await expect.poll(() => w.page.locator('figure .plot svg').count()).toBeGreaterThanOrEqual(1 + results.metrics.length);

      await w.page.goto('/');
      const headline = w.page.getByTestId(`running-${id}`).locator('.headline');
      await expect.poll(() => headline.textContent()).toContain(results.summary);

      const versions = (await t.server.api('GET', '/api/nous/learn/models/pbm-e2e/versions')).body.data.items;
      const model = (await t.server.api('GET', '/api/nous/learn/models/pbm-e2e')).body.data;
      await w.page.goto('/models/pbm-e2e');
      await expect.poll(() => w.page.getByTestId('active-version').textContent()).toBe(`v${model.activeVersion}`);
      expect(versions.length).toBe(2);
      for (const v of versions) {
        expect(await w.page.getByTestId(`version-${v.version}`).locator('[data-field=key-metric]').textContent()).toBe(
          number(v.metrics.logLikelihood),
        );
      }
      const ranker = (await t.server.api('GET', '/api/nous/learn/models/ltr-e2e')).body.data;
      await w.page.goto('/models/ltr-e2e');
      const ndcgRow = w.page.getByTestId('ndcg-table').getByRole('row', { name: /^ranker/ });
      await expect.poll(() => ndcgRow.textContent()).toContain(number(ranker.metrics.ndcg['10']));
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('the scale toggle re-reads every number on the other scale, and the slice selector shows exploratory slices', async () => {
    const id = seeded.running.experimentId;
    const absolute = (await t.server.api('GET', `${EXP}/${id}/results?scale=absolute`)).body.data;
    const w = await open();
    try {
      await w.page.goto(`/experiments/${id}`);
      await w.page.getByTestId('scale-toggle').selectOption('absolute');
      await expect.poll(() => w.page.getByTestId('results-scale').textContent()).toContain('absolute scale');
      const metric = absolute.metrics[0];
      const c = metric.comparisons[0];
      const row = w.page.getByTestId(`row-${metric.metric}-${c.variantId}`);
      await expect.poll(() => row.locator('[data-field=estimate]').textContent()).toBe(scaled('absolute', c.estimate, true));
      expect(await row.locator('[data-field=interval]').textContent()).toBe(interval(c.interval, (x) => scaled('absolute', x)));
      expect(await row.locator('[data-field=pValue]').textContent()).toBe(pValue(c.pValue));
      expect(await row.locator('[data-field=otherScale]').textContent()).toBe(
        `relative: ${scaled('relative', c.otherScale.estimate, true)}`,
      );
      await w.page.getByTestId('slice-selector').selectOption('deviceType');
      await w.page.getByTestId('slices-table').waitFor({ state: 'visible', timeout: 20_000 });
      expect(await w.page.getByTestId('slices-table').locator('caption').textContent()).toContain('exploratory');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('the train button queues a run and the page shows the new version when it is done', async () => {
    const w = await open();
    try {
      const before = (await t.server.api('GET', '/api/nous/learn/models/pbm-e2e/versions')).body.data.items.length;
      await w.page.goto('/models/pbm-e2e');
      await w.page.getByRole('button', { name: 'Train now' }).click();
      await w.page.getByRole('dialog').getByRole('button', { name: 'Train', exact: true }).click();
      await expect.poll(() => w.page.getByTestId('train-status').textContent()).toMatch(/Training (queued|running|finished)/);
      await w.page.getByTestId(`version-${before + 1}`).waitFor({ timeout: 60_000 });
      await expect.poll(() => w.page.getByTestId('train-status').textContent(), { timeout: 10_000 }).toContain('Training finished');
      const versions = (await t.server.api('GET', '/api/nous/learn/models/pbm-e2e/versions')).body.data.items;
      expect(versions.length).toBe(before + 1);
      expect(await w.page.getByTestId(`version-${before + 1}`).textContent()).toContain(versions[0].outcome);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('each lifecycle button moves the experiment, with confirmation, and the page follows', async () => {
    const id = seeded.created.experimentId;
    const w = await open();
    const labels: Record<string, string> = {
      start: 'Start',
      pause: 'Pause',
      resume: 'Resume',
      stop: 'Stop',
      conclude: 'Conclude…',
      archive: 'Archive',
    };
    try {
      await w.page.goto(`/experiments/${id}`);
      const lifecycle = w.page.getByRole('group', { name: 'Lifecycle' });
      for (const [action, status] of [
        ['start', 'running'],
        ['pause', 'paused'],
        ['resume', 'running'],
        ['stop', 'stopped'],
        ['conclude', 'concluded'],
        ['archive', 'archived'],
      ] as const) {
        const before = (await t.server.api('GET', `${EXP}/${id}`)).body.data;
        await expect
          .poll(() => lifecycle.getByRole('button').allTextContents())
          .toEqual(before.allowedActions.map((a: string) => labels[a]));
        const events = (await t.server.api('GET', `${EXP}/${id}/events`)).body.data.items.length;
        await lifecycle.getByRole('button', { name: labels[action], exact: true }).click();
        const dialog = w.page.getByRole('dialog');
        await dialog.waitFor();
        // Cancelling changes nothing.
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect((await t.server.api('GET', `${EXP}/${id}`)).body.data.status).toBe(before.status);
        await lifecycle.getByRole('button', { name: labels[action], exact: true }).click();
        if (action === 'conclude') {
          await dialog.getByLabel('inconclusive').check();
          await dialog.getByLabel('Notes').fill('no difference worth shipping');
        }
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'hidden' });
        await expect.poll(() => w.page.locator('h1 .badge').textContent()).toContain(status);
        expect((await t.server.api('GET', `${EXP}/${id}`)).body.data.status).toBe(status);
        await expect.poll(() => w.page.getByTestId('audit-log').locator('li').count()).toBe(events + 1);
      }
      await expect.poll(() => w.page.getByText('No lifecycle move is possible from archived.').count()).toBe(1);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('the new-experiment form shows the 400’s details next to the fields they name, then creates it', async () => {
    const w = await open();
    try {
      await w.page.goto('/experiments/new');
      await w.page.getByRole('button', { name: 'Create experiment' }).click();
      const expectedName = (
        await t.server.api('POST', EXP, {
          name: '',
          configuration: {
            variants: [{ id: 'control' }, { id: 'treatment' }],
            trafficAllocation: 1,
            targetMetrics: ['ctr'],
            analysis: { method: 'fixed' },
          },
        })
      ).body.error.details.find((d: { path: string }) => d.path === '/name').message;
      const nameField = w.page.locator('.field', { has: w.page.getByLabel('Name', { exact: true }) });
      await expect.poll(() => nameField.locator('.field-error').textContent()).toContain(expectedName);
      expect(await w.page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

      await w.page.getByLabel('Name', { exact: true }).fill('weights that do not add up');
      await w.page.getByLabel('Split traffic equally').uncheck();
      await w.page.getByLabel('Weight').nth(0).fill('0.7');
      await w.page.getByLabel('Weight').nth(1).fill('0.7');
      await w.page.getByRole('button', { name: 'Create experiment' }).click();
      const variants = w.page.locator('fieldset.variants > .field-error');
      await expect.poll(() => variants.textContent()).toContain('weights sum to 1.4; they must sum to 1');

      await w.page.getByLabel('Weight').nth(1).fill('0.3');
      await w.page.getByLabel('ctr').uncheck();
      await w.page.getByLabel('mrr').check();
      await w.page.getByRole('button', { name: 'Create experiment' }).click();
      await w.page.waitForURL(/\/experiments\/[0-9A-Z]{26}$/);
      const id = w.page.url().split('/').at(-1)!;
      const made = (await t.server.api('GET', `${EXP}/${id}`)).body.data;
      expect(made.name).toBe('weights that do not add up');
      expect(made.variants.map((v: { weight: number }) => v.weight)).toEqual([0.7, 0.3]);
      expect(made.configuration.targetMetrics).toEqual(['mrr']);
      await expect.poll(() => w.page.getByRole('heading', { level: 1 }).textContent()).toContain(made.name);
      // The two 400s were the point; nothing else may have failed.
      expect(w.problems.filter((p) => !/HTTP 400: POST .*\/experiments$|status of 400/.test(p))).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('feedback: filters by session with the API’s count, and erases a session after confirmation', async () => {
    const { sessionId, items } = seeded.erasable;
    const listed = (await t.server.api('GET', `/api/cortex/feedback?sessionId=${sessionId}`)).body.data.items;
    expect(listed.length).toBe(items);
    const w = await open();
    try {
      // Newest first by default, as the API's order=newest.
      const newest = (await t.server.api('GET', '/api/cortex/feedback?order=newest&limit=1')).body.data.items[0];
      await w.page.goto('/feedback');
      const firstRow = w.page.getByTestId('feedback-table').locator('tbody tr').first();
      await expect.poll(() => firstRow.textContent()).toContain(newest.queryId);
      expect(await firstRow.textContent()).toContain(newest.sessionId);
      await w.page.getByLabel('Session', { exact: true }).fill(sessionId);
      await w.page.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => w.page.getByTestId('feedback-table').locator('tbody tr').count()).toBe(listed.length);
      expect(w.page.url()).toContain(`sessionId=${sessionId}`);
      await expect.poll(() => w.page.getByLabel('Session to erase').inputValue()).toBe(sessionId);
      await w.page.getByRole('button', { name: 'Erase…' }).click();
      await w.page.getByRole('dialog').getByRole('button', { name: 'Erase session' }).click();
      await expect.poll(() => w.page.getByTestId('erase-result').textContent()).toContain(`${items} items`);
      await expect.poll(() => w.page.getByText('No feedback matches these filters').count()).toBe(1);
      expect((await t.server.api('GET', `/api/cortex/feedback?sessionId=${sessionId}`)).body.data.items).toEqual([]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('a first visit downloads under 300 KB of JavaScript (gzipped) and no chart code', async () => {
    const w = await open();
    try {
      await w.page.goto('/');
      await settle(w.page);
      const total = [...w.scriptBytes.values()].reduce((a, b) => a + b, 0);
      process.stdout.write(
        `dashboard first visit: ${(total / 1024).toFixed(1)} KB of JavaScript over the wire (${w.scriptBytes.size} files)\n`,
      );
      expect(total).toBeGreaterThan(10_000);
      expect(total).toBeLessThan(300 * 1024);
      expect([...w.scriptBytes.keys()].some((url) => url.includes('figures'))).toBe(false);
    } finally {
      await w.close();
    }
  });

  it('is keyboard reachable: skip link first, then the navigation, Enter follows a link', async () => {
    const w = await open();
    try {
      await w.page.goto('/');
      await settle(w.page);
      await w.page.keyboard.press('Tab');
      expect(await w.page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      let focused = '';
      for (let i = 0; i < 6 && focused !== 'Experiments'; i += 1) {
        await w.page.keyboard.press('Tab');
        focused = (await w.page.evaluate(() => document.activeElement?.textContent)) ?? '';
      }
      expect(focused).toBe('Experiments');
      await w.page.keyboard.press('Enter');
      await w.page.waitForURL(/\/experiments$/);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('an unknown experiment or model shows the envelope’s message and requestId', async () => {
    const w = await open();
    try {
      const api = (await t.server.api('GET', `${EXP}/01NOSUCHEXPERIMENT00000000`)).body.error;
      await w.page.goto('/experiments/01NOSUCHEXPERIMENT00000000');
      await expect.poll(() => w.page.getByTestId('error-message').textContent()).toBe(api.message);
      expect((await w.page.getByTestId('request-id').textContent())?.length).toBeGreaterThan(8);
      await w.page.goto('/models/no-such-model');
      await expect.poll(() => w.page.getByTestId('error-message').textContent()).toContain('no-such-model');
      expect(w.problems.every((p) => /404/.test(p))).toBe(true);
    } finally {
      await w.close();
    }
  });

  describe('on a server with no data', () => {
    let empty: DashboardServer;
    beforeAll(async () => {
      empty = await startDashboardServer({ clock, jobs: false });
    });
    afterAll(async () => empty?.close());

    it('every list page says what to send or click, with commands for this server', async () => {
      const w = await watchedPage(t.browser, PHONE, empty.url);
      try {
        for (const [path, title] of [
          ['/', 'No feedback yet'],
          ['/experiments', 'No experiments yet'],
          ['/models', 'No models yet'],
          ['/feedback', 'No feedback yet'],
        ] as const) {
          await w.page.goto(path);
          await w.page.getByRole('heading', { name: title }).waitFor();
          await settle(w.page);
          expect(await w.page.locator('pre.command').first().textContent(), path).toContain(`${empty.url}/api/`);
          await screenshot(w.page, `empty${path === '/' ? '-overview' : path.replace('/', '-')}-phone`);
          expect(await horizontalOverflow(w.page), path).toBe(0);
        }
        await w.page.goto('/');
        await expect.poll(() => w.page.getByText('No experiment is running').count()).toBe(1);
        expect(await w.page.getByRole('link', { name: 'Create one' }).count()).toBe(1);
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    });
  });

  describe('against a server with API keys', () => {
    const KEY = 'sl_admin_e2e_0123456789abcdef';
    let keyed: DashboardServer;
    beforeAll(async () => {
      keyed = await startDashboardServer({ clock, apiKeys: [{ key: KEY, scope: 'admin' }] });
    });
    afterAll(async () => keyed?.close());

    it('serves the dashboard without a key, asks for one, and works once it is entered in Settings', async () => {
      const w = await watchedPage(t.browser, DESKTOP, keyed.url);
      try {
        await w.page.goto('/');
        const error = w.page.getByRole('alert').first();
        await expect.poll(() => error.textContent()).toContain('An API key is required');
        expect((await w.page.getByTestId('request-id').first().textContent())?.length).toBeGreaterThan(8);
        await w.page.getByRole('link', { name: 'Enter an API key in Settings' }).first().click();
        await w.page.getByRole('textbox', { name: 'API key' }).fill(KEY);
        await w.page.getByRole('button', { name: 'Save key' }).click();
        await expect.poll(() => w.page.getByTestId('key-status').textContent()).toContain(`…${KEY.slice(-4)}`);
        const system = (await keyed.api('GET', '/api/system', undefined, KEY)).body.data;
        await expect.poll(() => w.page.locator('[data-field=authentication]').textContent()).toBe('API keys required');
        expect(await w.page.locator('[data-field=version]').textContent()).toBe(system.version);
        expect(system.authentication).toBe('keys');
        const before = w.problems.length;
        await w.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
        await expect.poll(() => w.page.getByRole('heading', { name: 'Running experiments' }).count()).toBe(1);
        await settle(w.page);
        expect(await w.page.getByText('An API key is required').count()).toBe(0);
        // Before the key: only 401s. After it: nothing failed.
        expect(w.problems.slice(0, before).every((p) => /401/.test(p))).toBe(true);
        expect(w.problems.slice(before)).toEqual([]);
        // The key stays in this tab's sessionStorage only.
        expect(await w.page.evaluate(() => sessionStorage.getItem('searchloop.apiKey'))).toBe(KEY);
        expect(await w.page.evaluate(() => localStorage.length)).toBe(0);
      } finally {
        await w.close();
      }
    });
  });
});
