import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { atMigration } from '../support/migration-database.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const HOUR = 3_600_000;

describeOnEveryDatabase('migration 0075 (one analytics results table)', (kind) => {
  it('moves the all-traffic result rows to dimension "" and keeps the sliced ones; down moves them back', async () => {
    await atMigration(kind, '0061-feedback-retention', async (db, migrator) => {
      const row = { query_hash: 'h1', hour: 5 * HOUR, result_id: 'doc-1', position: 2, impressions: 7, clicks: 3 };
      await sql`insert into analytics_result_hours (query_hash, hour, result_id, position, impressions, clicks)
        values (${row.query_hash}, ${row.hour}, ${row.result_id}, ${row.position}, ${row.impressions}, ${row.clicks})`.execute(db.db);
      await db.db
        .insertInto('analytics_result_slices')
        .values({ ...row, dimension: 'language', dim_value: 'en', impressions: 4, clicks: 1 })
        .execute();
      await migrateToLatest(db);
      const read = async () =>
        (await db.db.selectFrom('analytics_result_slices').selectAll().orderBy('dimension').execute()).map((r) => ({
          ...r,
          hour: Number(r.hour),
          impressions: Number(r.impressions),
          clicks: Number(r.clicks),
        }));
      expect(await read()).toEqual([
        { ...row, dimension: '', dim_value: '' },
        { ...row, dimension: 'language', dim_value: 'en', impressions: 4, clicks: 1 },
      ]);
      // The fold's upsert finds the moved row (the primary key survived the rebuild on SQLite).
      await sql`insert into analytics_result_slices (dimension, dim_value, query_hash, hour, result_id, position, impressions, clicks)
        values ('', '', ${row.query_hash}, ${row.hour}, ${row.result_id}, ${row.position}, 1, 1)
        on conflict (dimension, dim_value, query_hash, hour, result_id, position)
        do update set impressions = analytics_result_slices.impressions + excluded.impressions`.execute(db.db);
      expect((await read())[0]!.impressions).toBe(8);
      expect((await migrator.migrateTo('0061-feedback-retention')).error).toBeUndefined();
      const back = await sql<{ impressions: string | number }>`select impressions from analytics_result_hours`.execute(db.db);
      expect(back.rows.map((r) => Number(r.impressions))).toEqual([8]);
      expect((await read()).map((r) => r.dimension)).toEqual(['language']);
    });
  });
});
