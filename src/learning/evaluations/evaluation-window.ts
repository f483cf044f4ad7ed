import { ValidationError } from '../../common/errors.js';
import type { ErrorDetail } from '../../common/errors.js';
import type { EvaluationStore } from './evaluation.store.js';
import { WindowAccumulator, type LoggedWindow } from './logged-window.js';

const PAGE = 5000;

/** `from`/`to` as given: ISO-8601 or epoch milliseconds (a number, or digits in a query string). */
export function parseInstant(value: string | number, field: string, where: ErrorDetail['in']): number {
  const ms = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  // 8.64e15 ms is the last instant a JavaScript Date (and so an ISO-8601 answer) can hold.
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 8.64e15)
    throw ValidationError.field(field, 'is not an ISO-8601 date-time or epoch milliseconds', where);
  return ms;
}

export function parseWindow(
  from: string | number | undefined,
  to: string | number | undefined,
  where: ErrorDetail['in'],
  defaults: { now: number; days: number },
): { start: number; end: number } {
  const end = to === undefined ? defaults.now : parseInstant(to, '/to', where);
  const start = from === undefined ? end - defaults.days * 86_400_000 : parseInstant(from, '/from', where);
  if (start >= end) throw ValidationError.field('/from', 'must be before to', where);
  return { start, end };
}

/** Reads the window's feedback page by page into LoggedSearches; `onPage` sees how many searches were read so far. */
export async function readWindow(
  store: EvaluationStore,
  window: { start: number; end: number },
  maxDepth: number,
  { withFeatures = false, onPage = async () => {} }: { withFeatures?: boolean; onPage?: (searchesRead: number) => Promise<void> } = {},
): Promise<LoggedWindow> {
  const acc = new WindowAccumulator(maxDepth, withFeatures);
  let after: Awaited<ReturnType<EvaluationStore['readWindowPage']>>['last'];
  for (;;) {
    const page = await store.readWindowPage(window, after, PAGE);
    for (const row of page.rows) acc.add(row);
    if (page.rows.length < PAGE) break;
    after = page.last;
    await onPage(acc.searchesSeen);
  }
  return acc.finish();
}
