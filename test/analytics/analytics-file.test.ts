import fs from 'node:fs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { atMigration } from '../support/migration-database.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

/** Migration 0090: on SQLite the analytics tables move to `<file>-analytics` with their rows, keys and indexes; PostgreSQL keeps them. */
describeOnEveryDatabase('migration 0090 (the analytics file on SQLite)', (kind) => {
  it('moves every analytics table with its rows, keys and indexes, and moves them back down', async () => {
    await atMigration(kind, '0085-analytics-cursor', async (db, migrator, target) => {
      await db.db.insertInto('analytics_query_texts').values({ query_hash: 'h1', query_text: 'red shoes', source_id: 'X1' }).execute();
      await db.db.updateTable('analytics_progress').set({ folded_through: 42 }).execute();
      await migrateToLatest(db);

      // Found by the same unqualified names, with their rows.
      expect(await db.db.selectFrom('analytics_query_texts').selectAll().execute()).toEqual([
        { query_hash: 'h1', query_text: 'red shoes', source_id: 'X1' },
      ]);
      expect(Number((await db.db.selectFrom('analytics_progress').select('folded_through').executeTakeFirstOrThrow()).folded_through)).toBe(
        42,
      );
      // The primary key came along: a second row with the same hash is refused.
      await expect(
        db.db.insertInto('analytics_query_texts').values({ query_hash: 'h1', query_text: 'x', source_id: 'X2' }).execute(),
      ).rejects.toThrow(/UNIQUE|duplicate key/i);
      if (kind !== 'sqlite') return;

      const names = async (schema: 'main' | 'analytics') =>
        (
          await sql<{ name: string }>`select name from ${sql.raw(schema)}.sqlite_master where name like 'analytics%' order by name`.execute(
            db.db,
          )
        ).rows.map((r) => r.name);
      expect(await names('main')).toEqual([]);
      const moved = await names('analytics');
      for (const name of [
        'analytics_total_hours',
        'analytics_query_hours_query_idx',
        'analytics_entities_received_idx',
        'analytics_result_slices',
      ])
        expect(moved).toContain(name);
      expect(fs.existsSync(`${(target as { path: string }).path}-analytics`)).toBe(true);
      // WITHOUT ROWID survived the move (migration 0075 rebuilt the results table so).
      const results = await sql<{ sql: string }>`select sql from analytics.sqlite_master where name = 'analytics_result_slices'`.execute(
        db.db,
      );
      expect(results.rows[0]!.sql).toMatch(/without rowid/i);

      expect((await migrator.migrateTo('0085-analytics-cursor')).error).toBeUndefined();
      expect(await names('analytics')).toEqual([]);
      expect(await names('main')).toEqual(moved);
      expect(await db.db.selectFrom('analytics_query_texts').select('query_text').execute()).toEqual([{ query_text: 'red shoes' }]);
    });
  });
});
