// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { mulberry32 } from '../../src/random/index.js';
import { integer, pValue, percent } from '../../web/src/format.js';
import { fromTreatmentSide, readingOrder } from '../../web/src/pages/experiments/interleaving-side.js';
import { PHONE, horizontalOverflow, screenshot } from './support/browser.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';

const chromiumPath = inject('chromiumPath');
const BASE = '/api/nous/ab-testing/experiments';

// Issue 11: an interleaving experiment's page (multileave of three external rankers) shows the API's numbers:
// wins, ties, losses, preference and adjusted p per pair, the summary, and its three figures.
describe.skipIf(!chromiumPath)('interleaving experiment page in Chromium', { timeout: 120_000 }, () => {
  let experimentId: string;

  const t = useDashboardInChromium(
    { clock: systemClock, jobs: false },
    async (server) => {
      const created = await server.api('POST', BASE, {
        name: 'three engines',
        configuration: { type: 'interleaving', variants: [{ id: 'bm25' }, { id: 'vector' }, { id: 'hybrid' }], interleaving: { depth: 5 } },
      });
      expect(created.status).toBe(201);
      experimentId = created.body.data.experimentId;
      expect((await server.api('POST', `${BASE}/${experimentId}/start`, {})).status).toBe(200);
      // Relevant documents d0–d4: hybrid puts them first, vector mostly, bm25 at random. Seeded.
      const docs = Array.from({ length: 12 }, (_, i) => `d${i}`);
      const random = mulberry32(11);
      const shuffle = (xs: string[]) =>
        xs
          .map((x) => [random(), x] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, x]) => x);
      for (let u = 0; u < 40; u += 1) {
        const unitId = `unit-${u}`;
        const clicks: unknown[] = [];
        for (let k = 0; k < 2; k += 1) {
          const queryId = `${unitId}-${k}`;
          const rankings = {
            hybrid: [...shuffle(docs.slice(0, 5)), ...shuffle(docs.slice(5))],
            vector: [...shuffle([...docs.slice(0, 3), ...docs.slice(5, 7)]), ...shuffle([...docs.slice(3, 5), ...docs.slice(7)])],
            bm25: shuffle(docs),
          };
          const shown = await server.api('POST', `${BASE}/${experimentId}/interleave`, { unitId, queryId, rankings });
          expect(shown.status).toBe(200);
          for (const r of (shown.body.data.results as { resultId: string }[]).slice(0, 5))
            if (Number(r.resultId.slice(1)) < 5 && random() < 0.6)
              clicks.push({ queryId, metadata: { resultId: r.resultId, userAction: 'click' } });
        }
        if (clicks.length)
          expect((await server.api('POST', '/api/cortex/feedback', { sessionId: unitId, feedback: clicks })).status).toBe(201);
      }
      await server.container.experiments.services.attributionService.catchUp();
    },
    180_000,
  );

  it('shows each pair, the summary and the bars, preference and heat-map figures as the API computes them', async () => {
    const results = (await t.server.api('GET', `${BASE}/${experimentId}/results`)).body.data;
    const il = results.interleaving;
    expect(il.pairs).toHaveLength(3);
    expect(il.queries).toBe(80);
    const w = await t.open();
    try {
      await w.page.goto(`/experiments/${experimentId}`);
      await w.page.getByTestId('interleaving-pairs').waitFor();
      expect((await w.page.getByTestId('summary').textContent())?.trim()).toBe(results.summary);
      // The page reads each pair from the treatment's side (issue 25): the API's pair, turned where needed.
      const experiment = (await t.server.api('GET', `${BASE}/${experimentId}`)).body.data;
      for (const p of il.pairs.map((x: Parameters<typeof fromTreatmentSide>[0]) => fromTreatmentSide(x, readingOrder(experiment)))) {
        const row = w.page.getByTestId(`pair-${p.variantId}-${p.opponentVariantId}`);
        const cell = async (id: string) => (await row.getByTestId(id).textContent())?.trim();
        expect(await cell('wins')).toBe(integer(p.wins));
        expect(await cell('ties')).toBe(integer(p.ties));
        expect(await cell('losses')).toBe(integer(p.losses));
        expect(await cell('preference')).toBe(percent(p.preference, 1, true));
        expect(await cell('adjusted-p')).toBe(pValue(p.adjustedPValue));
      }
      // Outcome bars, preference intervals and the multileave heat map, each drawn.
      await expect.poll(() => w.page.locator('figure .plot svg').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
      await screenshot(w.page, 'experiment-interleaving-desktop');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('fits a phone without sideways scroll', async () => {
    const w = await t.open(PHONE);
    try {
      await w.page.goto(`/experiments/${experimentId}`);
      await w.page.getByTestId('interleaving-pairs').waitFor();
      await expect.poll(() => w.page.locator('figure .plot svg').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
      expect(await horizontalOverflow(w.page)).toBe(0);
      await screenshot(w.page, 'experiment-interleaving-phone');
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
