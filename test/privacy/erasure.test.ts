import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase, type DatabaseKind } from '../support/test-database.js';
import type { TestApp } from '../support/test-app.js';

const BASE = '/api/nous/ab-testing';
const VICTIM = 'erase-me-7f3a';
const BYSTANDER = 'keep-me-91c2';

/** Every (table, text column) of the app's schema, read from the database's own catalogue. */
async function textColumns(t: TestApp, kind: DatabaseKind): Promise<{ table: string; column: string }[]> {
  const db = t.database.db;
  if (kind === 'postgres') {
    const { rows } = await sql<{ table: string; column: string }>`
      select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`.execute(db);
    return rows;
  }
  // Both files: the analytics tables live in the attached analytics file (migration 0090).
  const tables = await sql<{ name: string }>`
    select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%'
    union all select name from analytics.sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  const out: { table: string; column: string }[] = [];
  for (const { name } of tables.rows) {
    const cols = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(db);
    for (const c of cols.rows) if (/char|text|clob|json|^$/i.test(c.type)) out.push({ table: name, column: c.name });
  }
  return out;
}

/** Rows per table whose text columns contain `needle` anywhere. */
async function rowsMentioning(t: TestApp, kind: DatabaseKind, needle: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const { table, column } of await textColumns(t, kind)) {
    const cast = kind === 'postgres' ? sql`${sql.ref(column)}::text` : sql.ref(column);
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)} where ${cast} like ${`%${needle}%`}`.execute(t.database.db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found[`${table}.${column}`] = n;
  }
  return found;
}

describeOnEveryDatabase('erasure of a session', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  /** Feedback, an experiment exposure with attributes and covariates, and attribution, for one session. */
  async function fillEveryTable(sessionId: string, experimentId: string) {
    await postJson(t.app, '/api/cortex/feedback', {
      sessionId,
      feedback: [{ queryId: `${sessionId}-before`, metadata: { userAction: 'click', customMetadata: { position: 1 } } }],
    });
    clock.advance(1000);
    const assigned = await postJson(t.app, `${BASE}/experiments/${experimentId}/assign`, {
      unitId: sessionId,
      attributes: { deviceType: 'mobile', covariates: { ctr: 0.5 } },
    });
    expect(assigned.body.data.inExperiment).toBe(true);
    clock.advance(1000);
    const sent = await request(t.app, {
      method: 'POST',
      url: '/api/cortex/feedback',
      headers: { 'idempotency-key': `key-of-${sessionId}` },
      payload: {
        sessionId,
        feedback: [
          { queryId: `${sessionId}-q1`, metadata: { userAction: 'impression', resultId: 'doc-1', customMetadata: { position: 1 } } },
          {
            queryId: `${sessionId}-q1`,
            metadata: { userAction: 'click', resultId: 'doc-1', customMetadata: { position: 1, dwellTime: 40_000 } },
          },
        ],
      },
    });
    expect(sent.statusCode).toBe(201);
  }

  it('removes every row keyed by the session in every table, reports each kind, and keeps other sessions', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: 'erasure',
      configuration: { variants: [{ id: 'a' }, { id: 'b' }] },
    });
    const id = created.body.data.experimentId;
    expect((await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` })).statusCode).toBe(200);
    // An interleaving experiment of two external rankers records the list each session was shown.
    const interleaving = await postJson(t.app, `${BASE}/experiments`, {
      name: 'erasure interleaving',
      configuration: { type: 'interleaving', variants: [{ id: 'bm25' }, { id: 'vector' }] },
    });
    const interleavingId = interleaving.body.data.experimentId;
    expect((await request(t.app, { method: 'POST', url: `${BASE}/experiments/${interleavingId}/start` })).statusCode).toBe(200);
    await fillEveryTable(VICTIM, id);
    await fillEveryTable(BYSTANDER, id);
    for (const unitId of [VICTIM, BYSTANDER]) {
      const shown = await postJson(t.app, `${BASE}/experiments/${interleavingId}/interleave`, {
        unitId,
        queryId: `${unitId}-q1`,
        rankings: { bm25: ['doc-1', 'doc-2'], vector: ['doc-2', 'doc-1'] },
      });
      expect(shown.statusCode, JSON.stringify(shown.body)).toBe(200);
    }
    // Rank exploration's shown lists (as POST /api/nous/rank records them for an explored unit).
    for (const unitId of [VICTIM, BYSTANDER]) {
      await t.database.db
        .insertInto('exploration_lists')
        .values({
          unit_id: unitId,
          query_id: `${unitId}-q2`,
          query_hash: 'shoes',
          list: JSON.stringify(['doc-2', 'doc-1']),
          swapped_from: 1,
          swapped_to: 2,
          propensity: 1,
          share: 0.05,
          recorded_at: clock.now(),
        })
        .execute();
    }
    const { attributionService, covariateService } = t.container.experiments.services;
    await covariateService.drain();
    expect(await attributionService.catchUp()).toBeGreaterThan(0);
    expect(await t.container.analytics.services.analyticsService.catchUp()).toBeGreaterThan(0);

    const before = await rowsMentioning(t, kind, VICTIM);
    // The session is really spread over the feedback and experiment tables before the request.
    for (const where of [
      'feedback_items.session_id',
      'feedback_submissions.session_id',
      'experiment_units.unit_id',
      'experiment_searches.unit_id',
      'experiment_unit_covariates.unit_id',
      'analytics_entities.key',
      'interleaved_queries.unit_id',
      'experiment_unit_slices.unit_id',
      'exploration_lists.unit_id',
    ]) {
      expect(before[where], where).toBeGreaterThan(0);
    }

    const erased = await request(t.app, { method: 'DELETE', url: `/api/cortex/feedback?sessionId=${VICTIM}` });
    expect(erased.statusCode).toBe(200);
    expect(erased.body.data).toEqual({
      sessionId: VICTIM,
      deletedItems: 3,
      deletedSubmissions: 2,
      removed: {
        feedbackItems: 3,
        feedbackSubmissions: 2,
        idempotencyKeys: 1,
        experimentUnits: 2, // one in the A/B test, one in the interleaving experiment
        experimentSearches: before['experiment_searches.unit_id'],
        experimentCovariates: before['experiment_unit_covariates.unit_id'],
        interleavedQueries: 1,
        experimentSlices: 1,
        explorationLists: 1,
        // Two searches (the one before exposure and q1) and the session; no pair: the items carry no queryHash.
        analyticsSearches: 2,
        analyticsSessions: 1,
        analyticsSessionQueries: 0,
      },
    });
    // Every text column of every table: no row still carries the session id.
    expect(await rowsMentioning(t, kind, VICTIM)).toEqual({});
    // The other session is untouched.
    expect(Object.keys(await rowsMentioning(t, kind, BYSTANDER))).toEqual(expect.arrayContaining(Object.keys(before)));

    // Erasing again finds nothing; results still answer from the variant sums, which identify no one.
    const again = await request(t.app, { method: 'DELETE', url: `/api/cortex/feedback?sessionId=${VICTIM}` });
    expect(Object.values(again.body.data.removed)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const results = await request(t.app, { method: 'GET', url: `${BASE}/experiments/${id}/results` });
    expect(results.statusCode).toBe(200);
  });
});
