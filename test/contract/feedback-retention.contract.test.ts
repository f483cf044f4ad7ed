import { expect, it } from 'vitest';
import { DAY_MS } from '../../src/common/time.js';
import { FakeFeedbackRetentionStore } from '../../src/feedback/fake-feedback-retention.store.js';
import { FakeFeedbackStore } from '../../src/feedback/fake-feedback.store.js';
import { KyselyFeedbackRetentionStore } from '../../src/feedback/feedback-retention.kysely-store.js';
import type { FeedbackRetentionStore } from '../../src/feedback/feedback-retention.store.js';
import { KyselyFeedbackStore } from '../../src/feedback/feedback.kysely-store.js';
import type { FeedbackStore } from '../../src/feedback/feedback.store.js';
import { describeContract } from './support/contract.js';
import { submission } from './support/records.js';

/**
 * The retention store, and the feedback store that holds what it removes. `partitioned`: the store
 * drops whole daily partitions (PostgreSQL); the fake, like SQLite, has none.
 */
interface RetentionWorld {
  retention: FeedbackRetentionStore;
  feedback: FeedbackStore;
  partitioned: boolean;
}

// The contract empties rows between cases, not partitions: each case works in a year of its own,
// each earlier than the one before, so a case's cutoff never reaches the partitions an earlier
// case left (nor those migration 0061 made around today), and partition counts stay exact.
const noonOf = (year: number) => Date.UTC(year, 0, 1, 12);

describeContract<RetentionWorld>(
  'FeedbackRetentionStore',
  {
    kysely: (database) => ({
      retention: new KyselyFeedbackRetentionStore(database.db, database.capabilities),
      feedback: new KyselyFeedbackStore(database.db),
      partitioned: database.capabilities.supportsPartitioning,
    }),
    fake: () => {
      const feedback = new FakeFeedbackStore();
      return { retention: new FakeFeedbackRetentionStore(feedback), feedback, partitioned: false };
    },
  },
  (world) => {
    it('creates the partitions of today and the 7 days ahead once: a second call creates none', async () => {
      const { retention, partitioned } = world();
      const now = noonOf(2022);
      expect(await retention.ensurePartitions(now)).toBe(partitioned ? 8 : 0);
      expect(await retention.ensurePartitions(now)).toBe(0);
      // A day later only the new last day is missing.
      expect(await retention.ensurePartitions(now + DAY_MS)).toBe(partitioned ? 1 : 0);
    });

    it('removes exactly the items and submissions received before the cutoff, over several batches, and keeps the rest', async () => {
      const { retention, feedback, partitioned } = world();
      const day0 = noonOf(2021);
      await retention.ensurePartitions(day0);
      const cutoff = day0 + 5 * DAY_MS;
      const gone = [
        submission('day-0', day0, [{}, {}, {}]),
        submission('day-3', day0 + 3 * DAY_MS, [{}, {}]),
        submission('just-before', cutoff - 1, [{}]),
      ];
      const kept = [submission('at-cutoff', cutoff, [{}]), submission('day-10', day0 + 10 * DAY_MS, [{}, {}, {}, {}])];
      await feedback.insertSubmissions([...gone, ...kept]);

      const outcome = await retention.removeReceivedBefore(cutoff, 2);
      expect({ items: outcome.items, submissions: outcome.submissions }).toEqual({ items: 6, submissions: 3 });
      // PostgreSQL: days 0 to 4 end before the cutoff and go whole (day 5, holding the cutoff, stays).
      expect(outcome.partitionsDropped).toBe(partitioned ? 5 : 0);
      expect((await feedback.listItems({}, 100)).map((i) => i.sessionId)).toEqual(['at-cutoff', 'day-10', 'day-10', 'day-10', 'day-10']);
      for (const s of gone) expect(await feedback.getSubmission(s.submission.id)).toBeUndefined();
      for (const s of kept) expect((await feedback.getSubmission(s.submission.id))?.items).toEqual(s.items);

      expect(await retention.removeReceivedBefore(cutoff, 2)).toEqual({ items: 0, submissions: 0, partitionsDropped: 0 });
    });

    it('removes a whole number of batches (6 items in batches of 3) where no partition holds them', async () => {
      const { retention, feedback } = world();
      const day0 = noonOf(2020);
      await feedback.insertSubmissions([submission('a', day0, [{}, {}, {}, {}]), submission('b', day0 + 1, [{}, {}])]);
      await feedback.insertSubmissions([submission('young', day0 + DAY_MS, [{}])]);
      expect(await retention.removeReceivedBefore(day0 + DAY_MS, 3)).toEqual({ items: 6, submissions: 2, partitionsDropped: 0 });
      expect((await feedback.listItems({}, 100)).map((i) => i.sessionId)).toEqual(['young']);
      expect(await retention.removeReceivedBefore(day0 + DAY_MS, 3)).toEqual({ items: 0, submissions: 0, partitionsDropped: 0 });
    });
  },
);
