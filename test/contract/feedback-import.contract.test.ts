import { expect, it } from 'vitest';
import { KyselyFeedbackStore } from '../../src/feedback/feedback.kysely-store.js';
import type { FeedbackRecord } from '../../src/feedback/feedback.store.js';
import { FakeFeedbackImportStore } from '../../src/feedback/import/fake-import.store.js';
import { KyselyFeedbackImportStore } from '../../src/feedback/import/import.kysely-store.js';
import type { FeedbackImportStore, ImportEntry } from '../../src/feedback/import/import.store.js';
import { describeContract } from './support/contract.js';
import { feedbackItem, nextId } from './support/records.js';

interface World {
  store: FeedbackImportStore;
  /** Every stored item, in id order. */
  items(): Promise<FeedbackRecord[]>;
}

const entry = (key: string, submissionId: string, sessionId: string, seq: number, over: Partial<FeedbackRecord> = {}): ImportEntry => ({
  key,
  record: feedbackItem({ id: nextId('item'), submissionId, sessionId, seq, eventTime: 500, ...over }),
});

describeContract<World>(
  'FeedbackImportStore',
  {
    kysely: (database) => {
      const feedback = new KyselyFeedbackStore(database.db);
      return { store: new KyselyFeedbackImportStore(database), items: () => feedback.listItems({}, 1000) };
    },
    fake: () => {
      const store = new FakeFeedbackImportStore();
      return { store, items: async () => [...store.items].sort((a, b) => a.id.localeCompare(b.id)) };
    },
  },
  (world) => {
    it('stores every entry of a new batch with its own event time, and reads them back as sent', async () => {
      const sub = nextId('sub');
      const batch = [entry('k1', sub, 's1', 0, { userAction: 'click', resultId: 'd1' }), entry('k2', sub, 's1', 1, { rating: 3 })];
      expect(await world().store.importBatch(batch, 9000)).toEqual({ inserted: 2, duplicates: 0 });
      expect(await world().items()).toEqual(batch.map((e) => e.record));
    });

    it('a re-import stores nothing new: taken keys are duplicates, fresh ones in the same batch still go in', async () => {
      const first = [entry('a', nextId('sub'), 's1', 0), entry('b', nextId('sub'), 's2', 0)];
      await world().store.importBatch(first, 1000);
      const again = [entry('a', nextId('sub'), 's1', 0), entry('b', nextId('sub'), 's2', 0)];
      expect(await world().store.importBatch(again, 2000)).toEqual({ inserted: 0, duplicates: 2 });
      const mixed = [entry('a', nextId('sub'), 's1', 0), entry('c', nextId('sub'), 's3', 0)];
      expect(await world().store.importBatch(mixed, 3000)).toEqual({ inserted: 1, duplicates: 1 });
      expect((await world().items()).map((i) => i.sessionId)).toEqual(['s1', 's2', 's3']);
    });

    it('an empty batch is a no-op', async () => {
      expect(await world().store.importBatch([], 1000)).toEqual({ inserted: 0, duplicates: 0 });
      expect(await world().items()).toEqual([]);
    });
  },
);
