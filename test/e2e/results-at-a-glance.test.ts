// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { mulberry32 } from '../../src/random/index.js';
import { TestClock } from '../support/test-clock.js';
import { integer, percent } from '../../web/src/format.js';
import { DESKTOP, PHONE, horizontalOverflow, screenshot } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';
import type { DashboardServer } from './support/dashboard-server.js';
import { seed, type Seeded } from './support/seed.js';

const chromiumPath = inject('chromiumPath');
const EXP = '/api/nous/ab-testing/experiments';
const HOUR = 3_600_000;
// UPDATE_SCREENSHOTS=1 also writes these to docs/screenshots for docs/dashboard.md.
const DOCS = new Set(['young-desktop', 'running-phone', 'interleaving-desktop']);

async function ok(res: Promise<{ status: number; body: any }>, status: number, what: string) {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body.data;
}

/** An A/B test on its first day: sessions over eight hours, the treatment clicked more. Seeded. */
async function youngExperiment(server: DashboardServer, clock: TestClock): Promise<string> {
  const e = await ok(
    server.api('POST', EXP, {
      name: 'first-day ranker test',
      configuration: {
        variants: [
          { id: 'control', name: 'Engine order' },
          { id: 'treatment', name: 'Ranking v3' },
        ],
        targetMetrics: ['ctr'],
        seed: 'young-e2e',
      },
    }),
    201,
    'create young experiment',
  );
  await ok(server.api('POST', `${EXP}/${e.experimentId}/start`), 200, 'start young');
  const random = mulberry32(25);
  const start = clock.now();
  for (let hour = 0; hour < 8; hour += 1) {
    clock.set(start + hour * HOUR + 60_000);
    for (let i = 0; i < 30; i += 1) {
      const unitId = `young-${hour}-${i}`;
      const a = await ok(server.api('POST', `${EXP}/${e.experimentId}/assign`, { unitId }), 200, 'assign young');
      const rate = a.variantId === 'treatment' ? 0.45 : 0.3;
      const feedback: unknown[] = [];
      for (let rank = 1; rank <= 3; rank += 1) {
        const meta = { resultId: `young-doc-${rank}`, queryHash: 'tent', customMetadata: { position: rank } };
        feedback.push({ queryId: `${unitId}-q`, metadata: { ...meta, userAction: 'impression' } });
        if (random() < rate) feedback.push({ queryId: `${unitId}-q`, metadata: { ...meta, userAction: 'click' } });
      }
      await ok(server.api('POST', '/api/cortex/feedback', { sessionId: unitId, feedback }), 201, 'feedback young');
    }
  }
  return e.experimentId;
}

/** Interleaving of the engine's order (control, first) against a learned ranker that puts the relevant documents first. */
async function interleavingExperiment(server: DashboardServer): Promise<string> {
  const e = await ok(
    server.api('POST', EXP, {
      name: 'engine vs learned ranker, interleaved',
      configuration: {
        type: 'interleaving',
        variants: [
          { id: 'engine', name: 'Engine order' },
          { id: 'ltr', name: 'Learned ranker' },
        ],
        interleaving: { depth: 5 },
      },
    }),
    201,
    'create interleaving',
  );
  await ok(server.api('POST', `${EXP}/${e.experimentId}/start`, {}), 200, 'start interleaving');
  const random = mulberry32(7);
  const docs = Array.from({ length: 10 }, (_, i) => `il-${i}`);
  const shuffle = (xs: string[]) =>
    xs
      .map((x) => [random(), x] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, x]) => x);
  for (let u = 0; u < 40; u += 1) {
    const unitId = `il-unit-${u}`;
    const clicks: unknown[] = [];
    for (let k = 0; k < 2; k += 1) {
      const queryId = `${unitId}-${k}`;
      const rankings = { engine: shuffle(docs), ltr: [...shuffle(docs.slice(0, 4)), ...shuffle(docs.slice(4))] };
      const shown = await ok(server.api('POST', `${EXP}/${e.experimentId}/interleave`, { unitId, queryId, rankings }), 200, 'interleave');
      for (const r of (shown.results as { resultId: string }[]).slice(0, 5))
        if (Number(r.resultId.slice(3)) < 4 && random() < 0.6)
          clicks.push({ queryId, metadata: { resultId: r.resultId, userAction: 'click' } });
    }
    if (clicks.length) await ok(server.api('POST', '/api/cortex/feedback', { sessionId: unitId, feedback: clicks }), 201, 'il clicks');
  }
  await server.container.experiments.services.attributionService.catchUp();
  return e.experimentId;
}

describe.skipIf(!chromiumPath)('results a team reads at a glance (issue 25 §2)', { timeout: 120_000 }, () => {
  let seeded: Seeded;
  let young: string;
  let interleaving: string;
  const clock = new TestClock(Date.parse('2026-11-19T08:00:00Z'));
  const t = useDashboardInChromium(
    { clock },
    async (server) => {
      seeded = await seed(server, clock);
      clock.set(Date.parse('2026-11-22T08:00:00Z'));
      young = await youngExperiment(server, clock);
      interleaving = await interleavingExperiment(server);
      clock.set(Date.parse('2026-11-22T17:00:00Z'));
    },
    240_000,
  );
  const drawn = (page: Page) =>
    page.waitForFunction(() => Array.from(document.querySelectorAll('.plot')).every((plot) => plot.querySelector('svg, figure')));
  const visit = async (page: Page, path: string, ready: string) => {
    await page.goto(path);
    await page.getByTestId(ready).first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await drawn(page);
  };

  /** Every cell of the page's results tables that is cut: its content wider than its box, or its box outside its table's scroll box. */
  const clippedCells = (page: Page) =>
    page.evaluate(() => {
      const out: string[] = [];
      const tables = document.querySelectorAll<HTMLTableElement>(
        '[data-testid^="results-"] , [data-testid="guardrails-table"], [data-testid="slices-table"], [data-testid="power-table"], [data-testid="interleaving-pairs"]',
      );
      for (const table of Array.from(tables)) {
        if (table.tagName !== 'TABLE') continue;
        const box = (table.closest('.table-wrap') ?? table) as HTMLElement;
        const id = table.dataset.testid;
        if (box.scrollWidth > box.clientWidth) out.push(`${id}: table scrolls sideways by ${box.scrollWidth - box.clientWidth} px`);
        const edge = box.getBoundingClientRect();
        for (const cell of Array.from(table.querySelectorAll<HTMLElement>('th, td'))) {
          if (cell.closest('thead')) continue;
          const r = cell.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue; // not displayed (an empty row heading on a phone's card)
          const name = `${id} ${cell.dataset.field ?? cell.dataset.label ?? cell.tagName}: ${(cell.textContent ?? '').slice(0, 30)}`;
          if (cell.scrollWidth > cell.clientWidth) out.push(`${name} (content ${cell.scrollWidth} px in ${cell.clientWidth} px)`);
          if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5 || r.right > window.innerWidth) out.push(`${name} (outside its box)`);
        }
      }
      return out;
    });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`no results cell is clipped at ${viewport.width}×${viewport.height}: A/B (with slices), first-day and interleaving results`, async () => {
      const w = await t.open(viewport);
      try {
        const cases = [
          ['running', `/experiments/${seeded.running.experimentId}`, 'power-ctr'],
          ['young', `/experiments/${young}`, 'power-ctr'],
          ['interleaving', `/experiments/${interleaving}`, 'interleaving-pairs'],
        ] as const;
        for (const [name, path, ready] of cases) {
          await visit(w.page, path, ready);
          await screenshot(w.page, `glance-${name}-${size}`);
          if (process.env.UPDATE_SCREENSHOTS === '1' && DOCS.has(`${name}-${size}`)) {
            // What a reader sees where the numbers are: the results card on a desktop, the first metric's cards on a phone.
            const file = join('docs/screenshots', `results-${name}-${size}.png`);
            if (size === 'desktop') await w.page.locator('section[aria-labelledby=results-title]').screenshot({ path: file });
            else {
              await w.page.evaluate(() =>
                document.querySelector('[data-testid^="results-"] caption, [data-testid=interleaving-pairs]')?.scrollIntoView(),
              );
              await w.page.screenshot({ path: file });
            }
          }
          const cells = await w.page.locator('table[data-testid] td').count();
          expect(cells, name).toBeGreaterThan(5);
          expect(await clippedCells(w.page), name).toEqual([]);
          expect(await horizontalOverflow(w.page), name).toBe(0);
        }
        // With exploratory slices too: the widest table.
        await visit(w.page, `/experiments/${seeded.running.experimentId}`, 'power-ctr');
        await w.page.getByTestId('slice-selector').selectOption('deviceType');
        await w.page.getByTestId('slices-table').waitFor({ timeout: 20_000 });
        await screenshot(w.page, `glance-slices-${size}`);
        expect(await clippedCells(w.page)).toEqual([]);
        if (size === 'phone') {
          // On a phone the arms are cards: every number sits next to its label, in view without scrolling sideways.
          const lift = w.page.getByTestId('row-ctr-treatment').locator('[data-field=estimate]');
          expect(await lift.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Lift (relative)"');
        }
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    });
  }

  it('the first day plots cumulative lift by hour; a later experiment by day', async () => {
    const results = (await t.server.api('GET', `${EXP}/${young}/results`)).body.data;
    const hours = new Set(
      results.hourlySeries[0].points.filter((p: { estimate: number | null }) => p.estimate !== null).map((p: { start: string }) => p.start),
    );
    expect(results.series[0].points.length).toBe(2); // one day: one point per arm, no curve by day
    expect(hours.size).toBeGreaterThanOrEqual(6);
    const w = await t.open();
    try {
      await visit(w.page, `/experiments/${young}`, 'series-ctr');
      const figure = w.page.getByTestId('series-ctr');
      expect(await figure.getAttribute('data-step')).toBe('hour');
      expect(await figure.locator('figcaption').textContent()).toContain('by exposure hour');
      // One dot per treatment and hour with a lift.
      await expect.poll(() => figure.locator('svg g[aria-label="dot"] circle').count()).toBe(hours.size);
      expect(await w.page.getByTestId('no-curve-ctr').count()).toBe(0);
      await visit(w.page, `/experiments/${seeded.running.experimentId}`, 'series-ctr');
      expect(await w.page.getByTestId('series-ctr').getAttribute('data-step')).toBe('day');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('power and days to go never contradict a significant verdict on the same screen', async () => {
    const results = (await t.server.api('GET', `${EXP}/${seeded.running.experimentId}/results`)).body.data;
    const w = await t.open();
    try {
      await visit(w.page, `/experiments/${seeded.running.experimentId}`, 'power-ctr');
      let significant = 0;
      for (const m of results.metrics) {
        const row = w.page.getByTestId(`power-${m.metric}`);
        await expect.poll(() => row.locator('[data-field=sessionsPerVariant]').textContent()).not.toBe('—');
        const c = m.comparisons[0];
        const verdict = await w.page.getByTestId(`row-${m.metric}-${c.variantId}`).locator('[data-field=verdict]').textContent();
        if (!c.significant) continue;
        significant += 1;
        expect(verdict).toContain('significant, better');
        expect(c.power).toBeLessThan(0.5); // the contradiction the page used to print: low power beside a clear result
        expect(await row.locator('[data-field=power]').textContent()).toContain('significant already');
        expect(await row.locator('[data-field=power]').textContent()).toContain('no more days are needed for this metric');
        expect(await row.locator('[data-field=daysToGo]').textContent()).toBe('none: significant already');
        expect(await row.locator('[data-field=unitsStillNeeded]').textContent()).toBe('none');
      }
      expect(significant).toBe(2);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('interleaving reads from the treatment’s side: the learned ranker that wins is shown as better', async () => {
    const il = (await t.server.api('GET', `${EXP}/${interleaving}/results`)).body.data.interleaving;
    const pair = il.pairs[0];
    // The API's pair is from the engine's (first variant's) side: the engine lost.
    expect([pair.variantId, pair.opponentVariantId, pair.winner, pair.significant]).toEqual(['engine', 'ltr', 'ltr', true]);
    expect(pair.preference).toBeLessThan(0);
    for (const viewport of [DESKTOP, PHONE]) {
      const w = await t.open(viewport);
      try {
        await visit(w.page, `/experiments/${interleaving}`, 'interleaving-pairs');
        const row = w.page.getByTestId('pair-ltr-engine');
        expect(await row.locator('th').textContent()).toBe('Learned ranker vs Engine order');
        expect(await row.getByTestId('wins').textContent()).toBe(integer(pair.losses));
        expect(await row.getByTestId('losses').textContent()).toBe(integer(pair.wins));
        expect(await row.getByTestId('preference').textContent()).toBe(percent(-pair.preference, 1, true));
        const winner = row.getByTestId('winner').locator('.verdict');
        expect(await winner.textContent()).toBe('▲ Learned ranker, better');
        expect(await winner.getAttribute('class')).toContain('verdict-better');
        // The preference chart draws the pair as better (green triangle), right of zero.
        const chart = w.page.locator('figure', { hasText: 'Preference for the first-named ranker' });
        await expect.poll(() => chart.locator('svg g[aria-label="dot"] path').count()).toBe(1);
        expect(await chart.locator('svg g[aria-label="dot"] path').getAttribute('fill')).toBe('#1b7a3a');
        expect(await w.page.locator('.verdict-worse').count()).toBe(0);
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    }
  });

  it('the forest plot’s x axis covers every interval; the overview’s feedback chart has a y axis of counts', async () => {
    const results = (await t.server.api('GET', `${EXP}/${seeded.running.experimentId}/results`)).body.data;
    const highest = Math.max(...results.metrics.flatMap((m: any) => m.comparisons.map((c: any) => c.adjustedInterval[1])));
    expect(highest).toBeGreaterThan(0.5); // wider than Plot's default domain (the dots) reached
    const w = await t.open();
    try {
      await visit(w.page, `/experiments/${seeded.running.experimentId}`, 'power-ctr');
      const forest = w.page.locator('figure', { hasText: 'Lift against control' });
      const ticks = (await forest.locator('svg g[aria-label="x-axis tick label"] text').allTextContents()).map((x) => parseFloat(x) / 100);
      expect(Math.max(...ticks)).toBeGreaterThanOrEqual(highest);
      // Every interval's right end is inside the plotting area.
      const [plotRight, lineRight] = await forest.evaluate((figure) => {
        // The chart's own svg is the widest one (the legend's swatches are svgs too).
        const svg = Array.from(figure.querySelectorAll('svg')).sort((a, b) => b.clientWidth - a.clientWidth)[0]!;
        const frame = svg.getBoundingClientRect();
        const rules = Array.from(svg.querySelectorAll('g[aria-label="rule"] line'));
        return [frame.right, Math.max(...rules.map((l) => l.getBoundingClientRect().right))];
      });
      expect(lineRight).toBeLessThanOrEqual(plotRight);

      const overview = (await t.server.api('GET', '/api/cortex/analytics/overview?interval=day')).body.data;
      const most = Math.max(...overview.series.map((p: { impressions: number }) => p.impressions));
      await visit(w.page, '/', 'volume-chart');
      const labels = await w.page.getByTestId('volume-y-axis').locator('text').allTextContents();
      const values = labels.filter((l) => /^[\d,]+$/.test(l)).map((l) => Number(l.replaceAll(',', '')));
      expect(values.length).toBeGreaterThanOrEqual(3);
      expect(values[0]).toBe(0);
      expect(Math.max(...values)).toBeGreaterThanOrEqual(most);
      await screenshot(w.page, 'glance-overview-desktop');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('the query page’s CTR and relevance are side by side (grouped bars from zero), not stacked', async () => {
    const detail = (await t.server.api('GET', '/api/cortex/analytics/queries/tent?interval=day')).body.data;
    const withRelevance = detail.results.filter((r: { relevance: number | null }) => r.relevance !== null).length;
    expect(withRelevance).toBeGreaterThan(2);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const w = await t.open(viewport);
      try {
        await visit(w.page, '/queries/tent', 'results-table');
        const chart = w.page.locator('figure', { hasText: 'CTR and relevance side by side' });
        const bars = chart.locator('svg g[aria-label="bar"] rect');
        await expect.poll(() => bars.count()).toBe(detail.results.length + withRelevance);
        // Grouped: every bar starts at zero (stacked bars start where the previous one ends).
        const starts = new Set(await bars.evaluateAll((rects) => rects.map((r) => Math.round(r.getBoundingClientRect().left))));
        expect(starts.size).toBe(1);
        await screenshot(w.page, `glance-query-${size}`);
        expect(await horizontalOverflow(w.page)).toBe(0);
        expect(w.problems).toEqual([]);
      } finally {
        await w.close();
      }
    }
  });

  it('labels read as words: no raw metric or field key on the results, and every status badge says what it means', async () => {
    const w = await t.open();
    try {
      for (const id of [seeded.running.experimentId, young, interleaving]) {
        await visit(w.page, `/experiments/${id}`, 'summary');
        const text = await w.page.locator('section[aria-labelledby=results-title]').evaluate((section) => {
          // Code is code; everything else, the API's summary sentence included, reads in words.
          const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
          const parts: string[] = [];
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.parentElement?.closest('code, svg')) parts.push(n.textContent ?? '');
          }
          return parts.join(' ');
        });
        expect(text.match(/\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b/g), id).toBeNull();
        expect(text).not.toMatch(/\b(ctr|mrr)\b/);
        expect(await w.page.locator('h1 .badge').getAttribute('title')).toMatch(/^Running: /);
      }
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
