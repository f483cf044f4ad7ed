// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import { measureBeacon } from '../../packages/client/scripts/size.mjs';
import { systemClock } from '../../src/common/clock.js';
import { useDashboardInChromium } from './support/dashboard-in-chromium.js';

const chromiumPath = inject('chromiumPath');

/** A shop's result page: the beacon from its minified bundle, events tracked, no flush by time. */
const page = (sessionId: string, count: number) => `<!doctype html><html><head><title>results</title></head><body>
<a id="leave" href="/healthz">next page</a>
<script type="module">
  import { createBeacon } from '/beacon.min.js';
  const beacon = createBeacon({ baseUrl: location.origin, flushIntervalMs: 600000 });
  for (let i = 0; i < ${count}; i++) {
    beacon.track({ sessionId: '${sessionId}', queryId: 'q-' + (i % 5), metadata: { userAction: i % 4 ? 'impression' : 'click', resultId: 'doc-' + i, customMetadata: { position: (i % 10) + 1 } } });
  }
  window.beaconReady = beacon.stats.queued;
</script></body></html>`;

describe.skipIf(!chromiumPath)('the beacon in Chromium', { timeout: 90_000 }, () => {
  let bundle: Uint8Array;

  const t = useDashboardInChromium(
    { clock: systemClock, jobs: false },
    async () => {
      bundle = (await measureBeacon()).code;
    },
    120_000,
  );

  const stored = async (sessionId: string) =>
    ((await t.server.api('GET', `/api/cortex/feedback?sessionId=${sessionId}&limit=1000`)).body as { data: { items: unknown[] } }).data
      .items.length;

  for (const how of ['link', 'close'] as const) {
    it(`delivers the events of a page that is left (${how === 'link' ? 'following a link' : 'closing the tab'})`, async () => {
      const sessionId = `beacon-${how}`;
      const watched = await t.open();
      await watched.context.route(`${t.server.url}/beacon.min.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: Buffer.from(bundle) }),
      );
      await watched.context.route(`${t.server.url}/results.html`, (route) =>
        route.fulfill({ contentType: 'text/html', body: page(sessionId, 120) }),
      );
      await watched.page.goto('/results.html');
      await watched.page.waitForFunction(() => (window as unknown as { beaconReady?: number }).beaconReady === 120);
      // Queued, not sent: only leaving the page can deliver them.
      expect(await stored(sessionId)).toBe(0);
      if (how === 'link') await watched.page.click('#leave');
      else await watched.page.close({ runBeforeUnload: true });
      const deadline = Date.now() + 10_000;
      while ((await stored(sessionId)) < 120 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await stored(sessionId)).toBe(120);
      expect(watched.problems).toEqual([]);
      await watched.close();
    });
  }
});
