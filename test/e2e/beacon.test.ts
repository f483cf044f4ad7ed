// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { measureBeacon } from '../../packages/client/scripts/size.mjs';
import { systemClock } from '../../src/common/clock.js';
import { launchChromium, watchedPage, type LaunchedBrowser } from './support/browser.js';
import { startDashboardServer, type DashboardServer } from './support/dashboard-server.js';

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
  let server: DashboardServer;
  let launched: LaunchedBrowser;
  let browser: Browser;
  let bundle: Uint8Array;

  beforeAll(async () => {
    server = await startDashboardServer({ clock: systemClock, jobs: false });
    bundle = (await measureBeacon()).code;
    launched = await launchChromium(chromiumPath!);
    browser = launched.browser;
  }, 120_000);
  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  const stored = async (sessionId: string) =>
    ((await server.api('GET', `/api/cortex/feedback?sessionId=${sessionId}&limit=1000`)).body as { data: { items: unknown[] } }).data.items
      .length;

  for (const how of ['link', 'close'] as const) {
    it(`delivers the events of a page that is left (${how === 'link' ? 'following a link' : 'closing the tab'})`, async () => {
      const sessionId = `beacon-${how}`;
      const watched = await watchedPage(browser, undefined, server.url);
      await watched.context.route(`${server.url}/beacon.min.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: Buffer.from(bundle) }),
      );
      await watched.context.route(`${server.url}/results.html`, (route) =>
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
