import { expect, it } from 'vitest';
import { FakeFeedbackStore } from '../../src/feedback/fake-feedback.store.js';
import { KyselyFeedbackStore } from '../../src/feedback/feedback.kysely-store.js';
import type { FeedbackStore } from '../../src/feedback/feedback.store.js';
import { describeContract } from './support/contract.js';
import { submission } from './support/records.js';

describeContract<FeedbackStore>(
  'FeedbackStore',
  { kysely: (database) => new KyselyFeedbackStore(database.db), fake: () => new FakeFeedbackStore() },
  (store) => {
    it('stores a submission with every column of its items and reads it back in seq order', async () => {
      const s = submission('s1', 5000, [
        { queryId: 'q1', userAction: 'impression', position: 1, resultId: 'd1', queryHash: 'shoes', searchType: 'keyword' },
        {
          queryId: 'q1',
          userAction: 'click',
          position: 1,
          rating: 4.5,
          timeToClick: 1200,
          dwellTime: 31000,
          scrollDepth: 0.25,
          viewportWidth: 390,
          viewportHeight: 844,
          deviceType: 'mobile',
          category: 'running',
          language: 'en',
          engagementType: 'open',
          eventTime: 4000,
          extraMetadata: '{"team":"blue"}',
        },
      ]);
      expect(await store().insertSubmissions([s])).toEqual(['inserted']);
      expect(await store().getSubmission(s.submission.id)).toEqual({ submission: s.submission, items: s.items });
      expect(await store().getSubmission('missing')).toBeUndefined();
    });

    it('takes an idempotency key once: a retry in a later batch or the same batch is a duplicate, and stores nothing', async () => {
      const first = submission('s1', 1000, [{ rating: 1 }], { key: 'k' });
      expect(await store().insertSubmissions([first])).toEqual(['inserted']);
      expect(await store().findIdempotencyRecord('feedback', 'k')).toEqual(first.idempotency);
      const twins = [submission('s2', 2000, [{ rating: 2 }], { key: 'k2' }), submission('s2', 2000, [{ rating: 3 }], { key: 'k2' })];
      const retry = submission('s1', 3000, [{ rating: 1 }], { key: 'k' });
      expect(await store().insertSubmissions([...twins, retry])).toEqual(['inserted', 'duplicate-key', 'duplicate-key']);
      expect(await store().getSubmission(retry.submission.id)).toBeUndefined();
      expect(await store().getSubmission(twins[1]!.submission.id)).toBeUndefined();
      expect((await store().listItems({}, 10)).map((i) => i.rating)).toEqual([1, 2]);
      expect(await store().findIdempotencyRecord('feedback', 'nope')).toBeUndefined();
    });

    it('lists items in id order by session, query and event-time window, after a cursor', async () => {
      const a = submission('s1', 1000, [
        { queryId: 'q1', eventTime: 100 },
        { queryId: 'q2', eventTime: 200 },
      ]);
      const b = submission('s2', 2000, [{ queryId: 'q1', eventTime: 300 }]);
      await store().insertSubmissions([a, b]);
      const ids = [...a.items, ...b.items].map((i) => i.id);
      expect((await store().listItems({}, 10)).map((i) => i.id)).toEqual(ids);
      expect((await store().listItems({ sessionId: 's1' }, 10)).map((i) => i.id)).toEqual(ids.slice(0, 2));
      expect((await store().listItems({ queryId: 'q1' }, 10)).map((i) => i.id)).toEqual([ids[0], ids[2]]);
      expect((await store().listItems({ since: 200, until: 300 }, 10)).map((i) => i.id)).toEqual([ids[1]]);
      expect((await store().listItems({ afterId: ids[0] }, 1)).map((i) => i.id)).toEqual([ids[1]]);
    });

    it("erases a session's items and submissions, and nothing else", async () => {
      await store().insertSubmissions([submission('s1', 1000, [{}, {}]), submission('s1', 2000, [{}]), submission('s2', 3000, [{}])]);
      expect(await store().deleteSession('s1')).toEqual({ items: 3, submissions: 2 });
      expect(await store().deleteSession('s1')).toEqual({ items: 0, submissions: 0 });
      expect((await store().listItems({}, 10)).map((i) => i.sessionId)).toEqual(['s2']);
    });

    it('forgets idempotency records created before a cutoff', async () => {
      await store().insertSubmissions([
        submission('s', 1000, [{}], { key: 'old', createdAt: 1000 }),
        submission('s', 5000, [{}], { key: 'young', createdAt: 5000 }),
      ]);
      expect(await store().deleteIdempotencyRecordsBefore(5000)).toBe(1);
      expect(await store().findIdempotencyRecord('feedback', 'old')).toBeUndefined();
      expect(await store().findIdempotencyRecord('feedback', 'young')).toBeDefined();
    });
  },
);
