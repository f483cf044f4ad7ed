import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/common/numbers.js';
import { erasureEvent, importBatchEvent, retentionEvent } from '../../src/feedback/feedback-events.js';
import { trainingEvents } from '../../src/learning/training/training-events.js';
import type { CompletedRun } from '../../src/learning/training/training-job.store.js';

const DAY = 86_400_000;

function run(overrides: Partial<CompletedRun> = {}): CompletedRun {
  return {
    jobId: 'job-1',
    owner: 'me',
    finishedAt: 0,
    jobStatus: 'succeeded',
    jobError: null,
    model: { status: 'ready', error: null },
    outcome: { at: 0, outcome: 'activated', message: null },
    nextRetrainAt: null,
    version: {
      modelId: 'ranker-a',
      jobId: 'job-1',
      outcome: 'activated',
      message: null,
      metrics: { comparedOn: { metric: 'ndcg@10', higherIsBetter: true, value: 0.7134, active: 0.69 } },
      counts: { rows: 900, trainRows: 720 },
      windowStart: null,
      windowEnd: null,
      trainingSeconds: 41.3,
      createdAt: 0,
      artifact: '{}',
    },
    ...overrides,
  };
}

describe('domain events as sentences', () => {
  it('groups thousands with a space', () => {
    expect(groupDigits(10_000)).toBe('10 000');
    expect(groupDigits(999)).toBe('999');
    expect(groupDigits(1_234_567.5)).toBe('1 234 567.5');
  });

  it('says what a training run did: trained and activated, trained and kept out, or failed', () => {
    expect(trainingEvents('ranker-a', run(), 5, 4).map((e) => e.message)).toEqual([
      'model "ranker-a" trained: v5 (NDCG@10 0.71, 720 train rows, 41 s)',
      'model "ranker-a" v5 activated (replaces v4)',
    ]);
    const base = run();
    const rejected = run({
      version: { ...base.version!, outcome: 'rejected', message: 'held-out ndcg@10 is worse; version 4 stays active' },
    });
    expect(trainingEvents('ranker-a', rejected, 5, 4).map((e) => [e.event, e.message])).toEqual([
      ['model.trained', 'model "ranker-a" trained: v5 (NDCG@10 0.71, 720 train rows, 41 s)'],
      ['model.rejected', 'model "ranker-a" v5 not activated: held-out ndcg@10 is worse; version 4 stays active'],
    ]);
    const clicks = run({
      version: {
        ...base.version!,
        metrics: { comparedOn: { metric: 'logLikelihood', value: -1.2345 } },
        counts: { trainSessions: 12_400 },
        trainingSeconds: 0.42,
      },
    });
    expect(trainingEvents('default', clicks, 1, null)[0]!.message).toBe(
      'model "default" trained: v1 (log-likelihood -1.23, 12 400 train sessions, 0.4 s)',
    );
    const failed = run({ jobStatus: 'failed', jobError: 'training failed: out of memory', version: undefined });
    expect(trainingEvents('ranker-a', failed, null, 4)).toEqual([
      {
        event: 'model.failed',
        fields: { modelId: 'ranker-a', jobId: 'job-1', error: 'training failed: out of memory', activeVersion: 4 },
        message: 'model "ranker-a" training failed: training failed: out of memory (v4 still serves)',
      },
    ]);
    // No data yet: a model waiting for feedback retries every minute, and writes no line.
    expect(trainingEvents('default', run({ version: undefined }), null, null)).toEqual([]);
  });

  it('counts an import batch, a retention run and an erasure in words', () => {
    const batch = importBatchEvent({
      lines: 10_003,
      imported: 10_000,
      duplicates: 0,
      rejected: [{ line: 17, reason: '/rating is too big' }],
    });
    expect(batch.message).toBe(
      'import batch finished: 10 003 lines, 10 000 items accepted, 0 already imported, 1 line rejected (first: line 17: /rating is too big)',
    );
    const retention = retentionEvent({ items: 1204, submissions: 300, partitionsDropped: 0, partitionsCreated: 2 }, 90, 100 * DAY);
    expect(retention.message).toBe(
      'retention run: 1 204 feedback items and 300 submissions received before 1970-04-11T00:00:00.000Z removed (FEEDBACK_RETENTION_DAYS=90); 2 daily partitions created',
    );
    expect(erasureEvent({ feedbackItems: 12, feedbackSubmissions: 3, experimentUnits: 0, interleavedQueries: 1 })).toEqual({
      event: 'session.erased',
      fields: { removed: { feedbackItems: 12, feedbackSubmissions: 3, experimentUnits: 0, interleavedQueries: 1 } },
      message: 'session erased: 12 feedback items, 3 feedback submissions, 1 interleaved queries',
    });
    expect(erasureEvent({ feedbackItems: 0 }).message).toBe('session erased: nothing was stored for it');
  });
});
