// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { dateTime, integer, percent } from '../../web/src/format.js';
import { metricShortLabel } from '../../web/src/format.js';
import { TestClock } from '../support/test-clock.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot, unlabelledControls } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import { seed, type Seeded } from './support/seed.js';

const chromiumPath = inject('chromiumPath');
const EXP = '/api/nous/ab-testing/experiments';
// seed() trains this LambdaMART ranker from an uploaded LETOR file: version 1 is active.
const RANKER = 'ltr-e2e';

interface ErrorDetail {
  path: string;
  message: string;
}

/** The field (label + control + its error line) whose control has this label; `nth` for the per-variant ones. */
const field = (page: Page, label: string, nth = 0) => page.locator('.field', { has: page.getByLabel(label, { exact: true }) }).nth(nth);

/**
 * Presses Create from the keyboard and returns the service's answer to that POST. (A mouse click right
 * after a full-page screenshot of the long phone form can land while the viewport is being restored.)
 */
async function submit(page: Page) {
  const create = page.getByRole('button', { name: 'Create experiment' });
  await create.focus();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(EXP) && r.request().method() === 'POST'),
    page.keyboard.press('Enter'),
  ]);
  return { status: response.status(), body: (await response.json()) as { error?: { details: ErrorDetail[] } } };
}

/** Fills the form for an interleaving test of the engine's order against the seeded ranker. */
async function fillInterleaving(page: Page, name: string, options: { version: string; alias: string; layer?: boolean }) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('radio', { name: /^Interleaving/ }).check();
  await page.getByLabel('Interleaving method').selectOption('team-draft');
  await page.getByLabel('Depth', { exact: true }).fill('5');
  await page.getByLabel('Variant 1 id (control)').fill('engine');
  await page.getByLabel('Variant 2 id').fill('ranker');
  await page.getByLabel('Ranker', { exact: true }).nth(1).selectOption(RANKER);
  // The version list arrives after the ranker is chosen: selectOption waits for the option.
  await page.getByLabel('Version', { exact: true }).selectOption(options.version);
  await page.getByRole('checkbox', { name: /Move an alias to the winner/ }).check();
  await page.getByLabel('Alias', { exact: true }).fill(options.alias);
  if (options.layer) {
    await page.getByLabel('Layer id').fill('ranking');
    await page.getByLabel('Range end').fill('0.5');
  }
}

describe.skipIf(!chromiumPath)('new-experiment form and experiment list in Chromium', { timeout: 120_000 }, () => {
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

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`creates a ranker-backed interleaving experiment that ships to an alias, at ${viewport.width} px`, async () => {
      const ranker = (await t.server.api('GET', `/api/nous/learn/models/${RANKER}`)).body.data;
      expect(ranker.type).toBe('ranker');
      expect(ranker.activeVersion).toBe(1);
      const w = await t.open(viewport);
      try {
        await w.page.goto('/experiments/new');
        const pinned = size === 'desktop';
        const alias = pinned ? 'production' : 'staging-ranker';
        if (pinned) {
          // An alias that exists: the picker says what it serves now.
          const put = await t.server.api('PUT', '/api/nous/learn/aliases/production', { modelId: RANKER, version: 1, reason: 'e2e' });
          expect(put.status).toBe(200);
        }
        await fillInterleaving(w.page, `engine vs ${RANKER} (${size})`, { version: pinned ? '1' : '', alias, layer: !pinned });
        await expect
          .poll(() => field(w.page, 'Alias').textContent())
          .toContain(pinned ? `“production” serves v1 of ${RANKER} now` : `No alias “${alias}” yet`);
        expect(await unlabelledControls(w.page)).toEqual([]);
        if (size === 'phone') expect(await horizontalOverflow(w.page)).toBe(0);
        await screenshot(w.page, `new-experiment-interleaving-${size}`);

        const answer = await submit(w.page);
        expect(answer.status).toBe(201);
        await w.page.waitForURL(/\/experiments\/[0-9A-Z]{26}$/);
        const id = w.page.url().split('/').at(-1)!;
        const made = (await t.server.api('GET', `${EXP}/${id}`)).body.data;
        expect(made.configuration.type).toBe('interleaving');
        expect(made.configuration.interleaving).toEqual({ method: 'team-draft', depth: 5 });
        expect(made.configuration.variants.map((v: { id: string }) => v.id)).toEqual(['engine', 'ranker']);
        expect(made.configuration.variants[0].model).toBeUndefined();
        expect(made.configuration.variants[1].model).toEqual(pinned ? { modelId: RANKER, version: 1 } : { modelId: RANKER });
        expect(made.configuration.promote).toEqual({ alias });
        if (pinned) {
          expect(made.configuration.layer).toBeUndefined();
          // It runs: starting pins the ranker's version, which only a trained ranker allows.
          const started = await t.server.api('POST', `${EXP}/${id}/start`);
          expect(started.status).toBe(200);
          expect(started.body.data.configuration.variants[1].model.pinnedVersion).toBe(1);
        } else {
          expect(made.configuration.layer).toEqual({ id: 'ranking', range: [0, 0.5] });
        }
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    });
  }

  it('places the 400’s details next to the fields they name, and the others in the summary at the top', async () => {
    const w = await t.open();
    const rewrite = async (change: (body: any) => void) => {
      await w.page.unroute(`**${EXP}`);
      await w.page.route(`**${EXP}`, async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}');
        change(body);
        await route.continue({ postData: JSON.stringify(body) });
      });
    };
    const summary = w.page.getByTestId('form-summary');
    try {
      await w.page.goto('/experiments/new');
      // 1. The server's schema check: a new alias typed with capitals and a space.
      await fillInterleaving(w.page, 'refused three times', { version: '1', alias: 'Production Ranker' });
      const first = await submit(w.page);
      expect(first.status).toBe(400);
      const aliasProblem = first.body.error!.details.find((d) => d.path === '/configuration/promote/alias');
      expect(aliasProblem).toBeDefined();
      await expect.poll(() => field(w.page, 'Alias').locator('.field-error').textContent()).toContain(aliasProblem!.message);
      expect(await w.page.getByLabel('Alias', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await summary.textContent()).toContain('One problem is marked next to its field below');
      // The summary takes the focus, so a keyboard or screen-reader user hears it first.
      expect(await w.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('form-summary');
      await screenshot(w.page, 'new-experiment-errors-desktop');

      // 2. The service's own check: the ranker no longer exists (renamed on the way out, as if retired meanwhile).
      await w.page.getByLabel('Alias', { exact: true }).fill('production');
      await rewrite((body) => (body.configuration.variants[1].model.modelId = 'retired-ranker'));
      const second = await submit(w.page);
      expect(second.status).toBe(400);
      const modelProblem = second.body.error!.details.find((d) => d.path === '/configuration/variants/1/model/modelId');
      expect(modelProblem).toBeDefined();
      await expect.poll(() => field(w.page, 'Ranker', 1).locator('.field-error').textContent()).toContain(modelProblem!.message);
      expect(await field(w.page, 'Ranker', 0).locator('.field-error').count()).toBe(0);
      expect(await field(w.page, 'Alias').locator('.field-error').count()).toBe(0);

      // 3. A detail no field matches (a field the API does not know, added on the way out): in the summary, with its path.
      await rewrite((body) => (body.configuration.audience = 'everyone'));
      const third = await submit(w.page);
      expect(third.status).toBe(400);
      const unknown = third.body.error!.details[0]!;
      expect(unknown.path).toBe('/configuration/audience');
      await expect.poll(() => summary.textContent()).toContain(unknown.path);
      expect(await summary.textContent()).toContain(unknown.message);
      expect(await w.page.locator('.field .field-error').count()).toBe(0);
      // Only the three refused creations may have failed.
      expect(w.problems.filter((p) => !/HTTP 400: POST .*\/experiments$|status of 400/.test(p))).toEqual([]);
    } finally {
      await w.close();
    }
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the list shows each experiment’s best lift with its verdict, its size and its age, at ${viewport.width} px`, async () => {
      const id = seeded.running.experimentId;
      const results = (await t.server.api('GET', `${EXP}/${id}/results`)).body.data;
      // The best lift as the list chooses it: significant first, then the largest move in the metric's good direction.
      const candidates = results.metrics.flatMap((m: any) =>
        m.comparisons
          .filter((c: any) => c.estimate !== null)
          .map((c: any) => ({ metric: m.metric, c, key: [c.significant ? 1 : 0, (m.direction === 'lower' ? -1 : 1) * c.estimate] })),
      );
      candidates.sort((a: any, b: any) => b.key[0] - a.key[0] || b.key[1] - a.key[1]);
      const best = candidates[0];
      expect(best.c.significant).toBe(true);
      const sessions = Object.values(results.srm.observed as Record<string, number>).reduce((a, b) => a + b, 0);
      const w = await t.open(viewport);
      try {
        await w.page.goto('/experiments');
        const headline = w.page.getByTestId(`headline-${id}`);
        await expect.poll(() => headline.textContent(), { timeout: 20_000 }).toContain(metricShortLabel(best.metric));
        const text = (await headline.textContent()) ?? '';
        expect(text).toContain(percent(best.c.estimate, 1, true));
        expect(text).toContain(best.c.improved ? 'significant, better' : 'significant, worse');
        expect(await w.page.getByTestId(`size-${id}`).textContent()).toBe(`${integer(sessions)} sessions`);
        // The experiment was started without a start date: its age counts from the audit log's start.
        const start = (await t.server.api('GET', `${EXP}/${id}/events`)).body.data.items.find((e: any) => e.action === 'start');
        const ageCell = w.page.getByTestId(`age-${id}`);
        await expect.poll(() => ageCell.getAttribute('title')).toBe(dateTime(start.at));
        expect(await ageCell.textContent()).toMatch(/^started \d+ (day|hour|minute)s? ago$/);
        // An experiment never started says so instead of a number.
        expect(await w.page.getByTestId(`headline-${seeded.created.experimentId}`).textContent()).toContain('not started');
        expect(await w.page.getByTestId(`age-${seeded.created.experimentId}`).textContent()).toMatch(/^created /);
        await w.page.waitForLoadState('networkidle');
        if (size === 'phone') expect(await horizontalOverflow(w.page)).toBe(0);
        await screenshot(w.page, `experiments-list-${size}`);
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    });
  }
});
