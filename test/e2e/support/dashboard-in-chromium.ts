import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { DESKTOP, launchChromium, watchedPage, type LaunchedBrowser, type WatchedPage } from './browser.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';

export interface DashboardInChromium {
  server: DashboardServer;
  browser: Browser;
  /** A fresh watched page on the server's origin (nothing may leave for another host). */
  open(viewport?: { width: number; height: number }): Promise<WatchedPage>;
}

/**
 * The setup every browser test shares, for the enclosing suite: the dashboard server (fresh SQLite,
 * the given clock), `prepare` to put data in it through the API, then Chromium; both closed after
 * the suite. The returned object is filled in by beforeAll, so read its fields inside tests only.
 * Wrap the suite in `describe.skipIf(!inject('chromiumPath'))`: without Chromium it does not run.
 */
export function useDashboardInChromium(
  options: Parameters<typeof startDashboardServer>[0],
  prepare: (server: DashboardServer) => Promise<void> = async () => {},
  timeoutMs = 180_000,
): DashboardInChromium {
  let launched: LaunchedBrowser | undefined;
  let server: DashboardServer | undefined;
  const t = {
    open: (viewport = DESKTOP) => watchedPage(t.browser, viewport, t.server.url),
  } as DashboardInChromium;
  beforeAll(async () => {
    server = await startDashboardServer(options);
    t.server = server;
    await prepare(server);
    launched = await launchChromium(inject('chromiumPath')!);
    t.browser = launched.browser;
  }, timeoutMs);
  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });
  return t;
}
