// Functions passed to page.evaluate run in the browser: they see the DOM.
/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const ARTIFACTS = path.resolve('test/e2e/artifacts');

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with nothing that talks to the outside: no background networking,
 * component updates, sync or QUIC. Playwright starts it on a new empty profile in a temporary
 * folder (its own --user-data-dir) and removes it on close. As root it needs --no-sandbox.
 */
export async function launchChromium(executablePath: string): Promise<LaunchedBrowser> {
  const args = [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--disable-default-apps',
    '--disable-extensions',
    '--no-default-browser-check',
    '--metrics-recording-only',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ];
  const browser = await chromium.launch({ executablePath, headless: true, args });
  return {
    browser,
    close: () => browser.close(),
  };
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors, failed requests and HTTP error answers seen so far. */
  problems: string[];
  /** Bytes of JavaScript as transferred (compressed), per URL. */
  scriptBytes: Map<string, number>;
  close(): Promise<void>;
}

/** A fresh page (own storage) that records everything that went wrong while it was used. */
export async function watchedPage(browser: Browser, viewport = DESKTOP, origin?: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, ...(origin ? { baseURL: origin } : {}) });
  // Nothing may leave for another host: every request is to the server under test.
  if (origin) {
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort('blockedbyclient'),
    );
  }
  const page = await context.newPage();
  const problems: string[] = [];
  const scriptBytes = new Map<string, number>();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // A request still running when the test navigates to the next page is cancelled by the browser
  // (net::ERR_ABORTED): that is the test leaving, not a failure the user would see.
  let navigations = 0;
  const startedOn = new WeakMap<object, number>();
  page.on('request', (request) => {
    // A new document for the page starts here, before the browser cancels what the old one was loading.
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations += 1;
    startedOn.set(request, navigations);
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    if (error.includes('ERR_ABORTED') && startedOn.get(request) !== navigations) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    // The page may close before the sizes arrive; that request then simply is not counted.
    request
      .sizes()
      .then((sizes) => scriptBytes.set(request.url(), sizes.responseBodySize))
      .catch(() => undefined);
  });
  return { page, context, problems, scriptBytes, close: () => context.close() };
}

/** Width the document would scroll sideways by (0 means it fits the viewport). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Form controls and buttons without an accessible name (label, aria-label, text). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href]'))) {
      if (el.closest('[hidden], dialog:not([open])')) continue;
      const input = el as HTMLInputElement;
      const named =
        (input.labels && input.labels.length > 0) ||
        el.getAttribute('aria-label') ||
        el.getAttribute('aria-labelledby') ||
        (el.tagName === 'BUTTON' || el.tagName === 'A'
          ? (el.textContent ?? '').trim() || el.querySelector('img[alt]:not([alt=""])')
          : null);
      if (!named) out.push(el.outerHTML.slice(0, 120));
    }
    return out;
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
