/**
 * A small feedback log whose analytics are worked out by hand in analytics-api.test.ts.
 *
 * Day 2026-11-22 (the window 00:00–12:00 UTC):
 *   S1 session A, query "shoes" (text "running shoes"), mobile, en, resultCount 12, 10:05
 *      impressions r1@1 r2@2 r3@3; clicks r2@2 (10:05:10), r1@1 (10:05:30); purchase r2 (10:06)
 *      LATE (second batch): click r3@3 at 10:05:05, earlier than every other click → first click at 3
 *   S2 session A, "shoes", mobile, en, resultCount 12, 10:20: impressions r1@1 r2@2 r3@3; click r3@3
 *   S3 session B, "shoes", desktop, de, 11:10: impressions r2@1 r1@2; no click in the first batch
 *      LATE (second batch): click r2@1 at 11:12 → S3 is no longer abandoned, first click at 1
 *   S4 session B, "socks", desktop, de, resultCount 0, 11:15: one `search` item, nothing shown
 *   S5 session C, "socks", mobile, en, resultCount 5 — LATE (second batch) with timestamps 09:30:
 *      impression r9@1, click r9@1 (09:30:05), conversion (09:31) → lands in the 09:00 hour
 * Day 2026-11-21 (the previous window 12:00–24:00): S0 session D, "shoes", desktop, en, 18:00:
 *   impressions r1@1 r2@2, no click.
 */

interface Ctx {
  device: string;
  language: string;
  text?: string;
  resultCount?: number;
}

function item(queryId: string, hash: string, ctx: Ctx, at: string, action: string, resultId?: string, position?: number) {
  return {
    queryId,
    metadata: {
      userAction: action,
      timestamp: at,
      ...(resultId ? { resultId } : {}),
      queryHash: hash,
      customMetadata: {
        deviceType: ctx.device,
        language: ctx.language,
        ...(position ? { position } : {}),
        ...(ctx.text ? { queryText: ctx.text } : {}),
        ...(ctx.resultCount !== undefined ? { resultCount: ctx.resultCount } : {}),
      },
    },
  };
}

const mobileEn = (extra: Partial<Ctx> = {}): Ctx => ({ device: 'mobile', language: 'en', ...extra });
const desktopDe = (extra: Partial<Ctx> = {}): Ctx => ({ device: 'desktop', language: 'de', ...extra });
const d = (hhmmss: string) => `2026-11-22T${hhmmss}Z`;

export const FIRST_BATCH = [
  {
    sessionId: 'A',
    feedback: [
      item('S1', 'shoes', mobileEn({ text: 'running shoes', resultCount: 12 }), d('10:05:00'), 'impression', 'r1', 1),
      item('S1', 'shoes', mobileEn(), d('10:05:00'), 'impression', 'r2', 2),
      item('S1', 'shoes', mobileEn(), d('10:05:00'), 'impression', 'r3', 3),
      item('S1', 'shoes', mobileEn(), d('10:05:10'), 'click', 'r2', 2),
      item('S1', 'shoes', mobileEn(), d('10:05:30'), 'click', 'r1', 1),
      item('S1', 'shoes', mobileEn(), d('10:06:00'), 'purchase', 'r2'),
      item('S2', 'shoes', mobileEn({ resultCount: 12 }), d('10:20:00'), 'impression', 'r1', 1),
      item('S2', 'shoes', mobileEn(), d('10:20:00'), 'impression', 'r2', 2),
      item('S2', 'shoes', mobileEn(), d('10:20:00'), 'impression', 'r3', 3),
      item('S2', 'shoes', mobileEn(), d('10:20:20'), 'click', 'r3', 3),
    ],
  },
  {
    sessionId: 'B',
    feedback: [
      item('S3', 'shoes', desktopDe(), d('11:10:00'), 'impression', 'r2', 1),
      item('S3', 'shoes', desktopDe(), d('11:10:00'), 'impression', 'r1', 2),
      item('S4', 'socks', desktopDe({ resultCount: 0 }), d('11:15:00'), 'search'),
    ],
  },
  {
    sessionId: 'D',
    feedback: [
      item('S0', 'shoes', { device: 'desktop', language: 'en' }, '2026-11-21T18:00:00Z', 'impression', 'r1', 1),
      item('S0', 'shoes', { device: 'desktop', language: 'en' }, '2026-11-21T18:00:00Z', 'impression', 'r2', 2),
    ],
  },
];

export const SECOND_BATCH = [
  {
    sessionId: 'C',
    feedback: [
      item('S5', 'socks', mobileEn({ resultCount: 5 }), d('09:30:00'), 'impression', 'r9', 1),
      item('S5', 'socks', mobileEn(), d('09:30:05'), 'click', 'r9', 1),
      item('S5', 'socks', mobileEn(), d('09:31:00'), 'conversion', 'r9'),
    ],
  },
  { sessionId: 'B', feedback: [item('S3', 'shoes', desktopDe(), d('11:12:00'), 'click', 'r2', 1)] },
  { sessionId: 'A', feedback: [item('S1', 'shoes', mobileEn(), d('10:05:05'), 'click', 'r3', 3)] },
];

export const WINDOW = 'from=2026-11-22T00:00:00Z&to=2026-11-22T12:00:00Z';
