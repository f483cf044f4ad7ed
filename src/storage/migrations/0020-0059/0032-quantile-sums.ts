import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * Quantile metrics (issue 13): per variant and exposure day, and per slice value and variant, the grid
 * sums of each quantile source (time_to_click, dwell_time) over a fixed log-spaced threshold grid
 * (QUANTILE_GRID_SPEC): units, items, Σm², and per threshold Σc, Σc², Σc·m as JSON arrays (leading zeros
 * and the constant tail dropped, src/experiments/quantile-grid.ts). Attribution writes them exactly once per item, in its transaction, under its lock; each unit
 * keeps its items' grid positions (`experiment_units.quantile_positions`, JSON per source), erased with the
 * unit. The sums hold counts only, no session id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('experiment_units').addColumn('quantile_positions', 'text').execute();
  // The builder's column-name type is widened: the key columns are added after the shared ones.
  type Builder = CreateTableBuilder<string, string>;
  const grid = (t: Builder): Builder =>
    t
      .addColumn('units', 'bigint', (c) => c.notNull())
      .addColumn('items', 'bigint', (c) => c.notNull())
      .addColumn('items_squared', 'double precision', (c) => c.notNull())
      .addColumn('below', 'text', (c) => c.notNull())
      .addColumn('below_squared', 'text', (c) => c.notNull())
      .addColumn('below_times_items', 'text', (c) => c.notNull());
  await grid(
    db.schema
      .createTable('experiment_quantile_sums')
      .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
      .addColumn('phase', 'integer', (c) => c.notNull())
      .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('source', 'varchar(32)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('experiment_quantile_sums_pk', ['experiment_id', 'phase', 'variant_id', 'day', 'source'])
    .execute();
  await grid(
    db.schema
      .createTable('experiment_slice_quantile_sums')
      .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
      .addColumn('phase', 'integer', (c) => c.notNull())
      .addColumn('dimension', 'varchar(32)', (c) => c.notNull())
      .addColumn('value', 'varchar(128)', (c) => c.notNull())
      .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('source', 'varchar(32)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('experiment_slice_quantile_sums_pk', ['experiment_id', 'phase', 'dimension', 'value', 'variant_id', 'source'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('experiment_slice_quantile_sums').ifExists().execute();
  await db.schema.dropTable('experiment_quantile_sums').ifExists().execute();
  await db.schema.alterTable('experiment_units').dropColumn('quantile_positions').execute();
}
