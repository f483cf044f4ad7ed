import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, openTestDatabase } from '../support/test-database.js';
import { sleep } from '../support/ports.js';
import { type Answer, prng, send, startServer } from './harness.js';

const TRIALS = 8;
const CLIENTS = 8;
const ASSIGN = '/api/nous/ab-testing/assign';

/**
 * What a 200 from assign promises: the unit's first exposure is committed (group-committed with
 * other requests' exposures, and synced on SQLite) before the answer leaves. Kill -9 at a random
 * moment of concurrent assignments of new units, restart on the same database, and check that
 * every unit answered "in the experiment" has its exposure, with the variant it was told, and
 * that the variant-day unit counts, written in the same transaction, count exactly the stored
 * exposures. Unanswered units may or may not have been recorded.
 */
describe.each(databaseKinds())('kill -9 during assignment on %s', (kind) => {
  it(`${TRIALS} trials: every acknowledged exposure is stored, and counted once`, async () => {
    const rand = prng(kind === 'sqlite' ? 0x61737331 : 0x61737332);
    const testDatabase = await createTestDatabase(kind);
    const target = testDatabase.target;
    const env =
      target.kind === 'sqlite'
        ? { DATABASE_URL: `sqlite://${target.path}` }
        : { DATABASE_URL: target.url, ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}) };
    const answers = new Map<string, Answer>();
    let server = await startServer(env);
    let experimentId: string;
    try {
      const created = await send(server.url, {
        method: 'POST',
        path: '/api/nous/ab-testing/experiments',
        body: { name: 'kill9-assign', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } },
      });
      experimentId = created.body.data.experimentId;
      expect((await send(server.url, { method: 'POST', path: `/api/nous/ab-testing/experiments/${experimentId}/start` })).status).toBe(200);

      for (let trial = 1; trial <= TRIALS; trial += 1) {
        const srv = server;
        let stopped = false;
        const clients = Array.from({ length: CLIENTS }, async (_, c) => {
          for (let n = 0; !stopped; n += 1) {
            const unitId = `k9-${trial}-${c}-${n}`;
            const answer = await send(srv.url, { method: 'POST', path: ASSIGN, body: { unitId }, timeoutMs: 30_000 });
            answers.set(unitId, answer);
            if (answer.status === undefined) return;
          }
        });
        await sleep(200 + Math.floor(rand() * 1300));
        await server.killHard();
        stopped = true;
        await Promise.all(clients);
        server = await startServer(env);
      }
    } finally {
      await server.stop();
    }

    const database = await openTestDatabase(testDatabase);
    try {
      const stored = new Map(
        (
          await database.db
            .selectFrom('experiment_units')
            .select(['unit_id', 'variant_id'])
            .where('experiment_id', '=', experimentId)
            .execute()
        ).map((r) => [r.unit_id, r.variant_id]),
      );
      const counted = await sql<{ units: number | string | null }>`
        select sum(units) as units from experiment_variant_units where experiment_id = ${experimentId}`.execute(database.db);
      const problems: string[] = [];
      let acknowledged = 0;
      for (const [unitId, answer] of answers) {
        if (answer.status === undefined) continue;
        if (answer.status !== 200) {
          problems.push(`${unitId} answered ${answer.status} ${JSON.stringify(answer.body)}`);
          continue;
        }
        const assignment = answer.body.data.assignments[0];
        if (!assignment?.inExperiment) continue;
        acknowledged += 1;
        if (stored.get(unitId) !== assignment.variantId)
          problems.push(`${unitId}: told ${assignment.variantId}, stored ${stored.get(unitId)}`);
      }
      for (const unitId of stored.keys()) if (!answers.has(unitId)) problems.push(`${unitId} stored but never sent`);
      console.log(
        `kill -9 during assignment on ${kind}: ${answers.size} sent, ${acknowledged} acknowledged, ${stored.size} stored, ` +
          `${[...answers.values()].filter((a) => a.status === undefined).length} unanswered`,
      );
      expect(problems).toEqual([]);
      expect(acknowledged).toBeGreaterThan(0);
      expect(Number(counted.rows[0]?.units ?? 0)).toBe(stored.size);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});
