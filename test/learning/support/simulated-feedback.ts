import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SearchSession } from '../../../src/click-models/index.js';
import { postJson } from '../../support/http.js';

export interface FeedbackItem {
  queryId: string;
  rating?: number;
  metadata: Record<string, unknown>;
}

/**
 * One simulated search as the feedback a front end sends: an impression per shown rank and a
 * click per clicked result, all stamped `at` (ISO, with a zone).
 */
export function sessionToItems(
  s: SearchSession,
  queryId: string,
  at: number,
  opts: { impressions?: boolean; extra?: Record<string, unknown> } = {},
): FeedbackItem[] {
  const timestamp = new Date(at).toISOString();
  const items: FeedbackItem[] = [];
  s.resultIds.forEach((resultId, r) => {
    const base = { resultId, queryHash: s.queryHash, timestamp };
    const custom = { position: r + 1, ...opts.extra };
    if (opts.impressions !== false) items.push({ queryId, metadata: { ...base, userAction: 'impression', customMetadata: custom } });
    if (s.clicks[r]) items.push({ queryId, metadata: { ...base, userAction: 'click', customMetadata: custom } });
  });
  return items;
}

/** Sends items through POST /api/cortex/feedback in batches of at most 1000 (the per-request limit). */
export async function sendFeedback(app: FastifyInstance, items: readonly FeedbackItem[], sessionId = 'sim'): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    const res = await postJson(app, '/api/cortex/feedback', { sessionId, feedback: items.slice(i, i + 1000) });
    expect(res.statusCode, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  }
}
