import { describe, expect, it } from 'vitest';
import { AppError } from '../common/errors.js';
import { FakeFeedbackStore } from './fake-feedback.store.js';
import type { FeedbackSubmissionBody } from './feedback.schemas.js';
import { FeedbackService } from './feedback.service.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const clock = { now: () => NOW };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('FeedbackService', () => {
  it('flattens known customMetadata into fields and keeps the rest as client metadata', async () => {
    const store = new FakeFeedbackStore();
    const service = new FeedbackService(store, clock);
    // Extra customMetadata keys are allowed by the schema but absent from its static type.
    const body = {
      sessionId: 's',
      feedback: [
        {
          queryId: 'q',
          metadata: {
            userAction: 'click',
            customMetadata: { position: 2, dwellTime: 31000, viewport: { width: 3, height: 4 }, team: 'blue' },
          },
        },
      ],
    } as unknown as FeedbackSubmissionBody;
    await service.submit(body);
    expect(store.items[0]).toMatchObject({
      position: 2,
      dwellTime: 31000,
      viewportWidth: 3,
      viewportHeight: 4,
      extraMetadata: '{"team":"blue"}',
      eventTime: NOW,
      receivedAt: NOW,
    });
  });

  it('collects every rule an item breaks, with paths, and stores nothing', async () => {
    const store = new FakeFeedbackStore();
    const service = new FeedbackService(store, clock);
    const error = await rejection(
      service.submit({
        sessionId: 's',
        feedback: [{ queryId: 'q' }, { queryId: 'q', rating: 1, metadata: { timestamp: '2026-11-22T12:06:00Z' } }],
      }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.map((d) => d.path)).toEqual(['/feedback/0', '/feedback/1/metadata/timestamp']);
    expect(store.items).toHaveLength(0);
  });

  it('replays an idempotent retry from the record and refuses a changed body', async () => {
    const store = new FakeFeedbackStore();
    const service = new FeedbackService(store, clock);
    const body = { sessionId: 's', feedback: [{ queryId: 'q', rating: 2 }] };
    const first = await service.submit(body, 'k');
    expect(await service.submit(body, 'k')).toEqual(first);
    expect(store.items).toHaveLength(1);
    const error = await rejection(service.submit({ ...body, sessionId: 't' }, 'k'));
    expect(error.code).toBe('CONFLICT');
  });

  it('forgets idempotency keys after 24 hours, so a later reuse stores a new submission', async () => {
    let now = NOW;
    const store = new FakeFeedbackStore();
    const service = new FeedbackService(store, { now: () => now });
    const body = { sessionId: 's', feedback: [{ queryId: 'q', rating: 2 }] };
    const first = await service.submit(body, 'k');
    now += 23 * 3_600_000;
    expect(await service.expireIdempotencyKeys()).toBe(0);
    expect(await service.submit(body, 'k')).toEqual(first);
    now += 2 * 3_600_000;
    expect(await service.expireIdempotencyKeys()).toBe(1);
    expect((await service.submit(body, 'k')).feedbackId).not.toBe(first.feedbackId);
  });
});
