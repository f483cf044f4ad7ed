import type { Kysely } from 'kysely';

/**
 * Slices by assign attribute (issue 13): each exposed unit keeps, from its first exposure, the values of
 * the attributes its experiment declares as slice dimensions (`analysis.dimensions: ["attr:country"]`),
 * as JSON {name: value}; only those attributes, nothing else of the assign call. The row is keyed by the
 * session, so the session's erasure removes it with the unit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('experiment_units').addColumn('slice_attributes', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('experiment_units').dropColumn('slice_attributes').execute();
}
