import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { KyselyFeedbackRetentionStore } from '../../src/feedback/feedback-retention.kysely-store.js';
import { FeedbackRetentionService } from '../../src/feedback/feedback-retention.service.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { atMigration } from '../support/migration-database.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1, 12); // noon, 1 October 2026

describeOnEveryDatabase('feedback retention', (kind) => {
  const clock = new TestClock(T0);
  const t = useTestApp(kind, { clock });
  const send = (sessionId: string, n: number) =>
    postJson(t.app, '/api/cortex/feedback', {
      sessionId,
      feedback: Array.from({ length: n }, (_, i) => ({ queryId: `q${i}`, rating: 3 })),
    });

  it('removes feedback received before the cutoff (whole days on PostgreSQL, batches on SQLite) and keeps the rest', async () => {
    const store = new KyselyFeedbackRetentionStore(t.database.db, t.database.capabilities);
    // Keep-everything (the default) only maintains partitions.
    const keepAll = new FeedbackRetentionService(store, clock, 0);
    const first = await keepAll.run();
    expect(first.items).toBe(0);
    expect(first.partitionsCreated).toBe(kind === 'postgres' ? 8 : 0);

    expect((await send('day-0', 3)).statusCode).toBe(201);
    clock.advance(3 * DAY);
    expect((await send('day-3', 2)).statusCode).toBe(201);
    clock.advance(7 * DAY);
    await keepAll.run();
    expect((await send('day-10', 4)).statusCode).toBe(201);
    expect((await keepAll.run()).items).toBe(0);

    // Five days: the cutoff is day 5 at noon, so days 0 and 3 go, day 10 stays.
    const outcome = await new FeedbackRetentionService(store, clock, 5).run();
    expect(outcome.items).toBe(5);
    expect(outcome.submissions).toBe(2);
    // PostgreSQL: days 0–4 end before the cutoff and go as whole partitions (day 0 and day 3 held the rows).
    expect(outcome.partitionsDropped).toBe(kind === 'postgres' ? 5 : 0);
    const left = await getJson(t.app, '/api/cortex/feedback?limit=100');
    expect(left.body.data.items.map((i: { sessionId: string }) => i.sessionId)).toEqual(['day-10', 'day-10', 'day-10', 'day-10']);
    // Idempotent: a second run finds nothing more.
    expect(await new FeedbackRetentionService(store, clock, 5).run()).toMatchObject({ items: 0, submissions: 0, partitionsDropped: 0 });
  });

  it('removes everything past the cutoff when it takes several batches (29 rows in batches of 7)', async () => {
    const store = new KyselyFeedbackRetentionStore(t.database.db, t.database.capabilities);
    clock.advance(30 * DAY);
    expect((await send('batch', 25)).statusCode).toBe(201);
    clock.advance(10 * DAY);
    const removed = await store.removeReceivedBefore(clock.now() - DAY, 7);
    // The 25 new items and the 4 left by the previous test.
    expect(removed.items).toBe(29);
    expect((await getJson(t.app, '/api/cortex/feedback?limit=100')).body.data.items).toEqual([]);
  });
});

describeOnEveryDatabase('migration 0061 (partitioned feedback on PostgreSQL)', (kind) => {
  it('keeps every existing item and submission through the conversion', async () => {
    await atMigration(kind, '0060-erasure', async (db) => {
      await db.db.insertInto('feedback_submissions').values({ id: 's1', session_id: 'old', item_count: 2, received_at: T0 }).execute();
      const item = (id: string, seq: number, receivedAt: number) => ({
        id,
        submission_id: 's1',
        seq,
        session_id: 'old',
        query_id: 'q',
        event_time: receivedAt,
        received_at: receivedAt,
      });
      await db.db
        .insertInto('feedback_items')
        .values([item('i1', 0, T0), item('i2', 1, Date.now())])
        .execute();
      await migrateToLatest(db);
      const rows = await db.db.selectFrom('feedback_items').select(['id', 'attributed']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'i1', attributed: 0 },
        { id: 'i2', attributed: 0 },
      ]);
      if (kind === 'postgres') {
        const partitioned = await sql<{ n: string }>`
          select count(*) as n from pg_partitioned_table p join pg_class c on c.oid = p.partrelid
          join pg_namespace s on s.oid = c.relnamespace where c.relname = 'feedback_items' and s.nspname = current_schema()`.execute(db.db);
        expect(Number(partitioned.rows[0]!.n)).toBe(1);
        // Today's item went to today's partition, the old one to the default partition.
        const inDefault = await sql<{ id: string }>`select id from feedback_items_default`.execute(db.db);
        expect(inDefault.rows.map((r) => r.id)).toEqual(['i1']);
      }
    });
  });
});
