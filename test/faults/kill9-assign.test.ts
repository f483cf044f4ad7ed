import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, openTestDatabase } from '../support/test-database.js';
import { sleep } from '../support/ports.js';
import { type Answer, prng, send, startServer } from './harness.js';

const TRIALS = 8;
const CLIENTS = 8;
const MODELS = '/api/nous/learn/models';
const FIXTURES = fileURLToPath(new URL('../fixtures/imported-models', import.meta.url));
// Two held-out rows as a rank request's results (the imported ranker's own features).
const heldout = JSON.parse(readFileSync(`${FIXTURES}/xgb-heldout.json`, 'utf8')) as { rows: { features: Record<string, number> }[] };
const RESULTS = heldout.rows.slice(0, 2).map((r, i) => ({ resultId: `doc-${i}`, features: r.features }));

/** One request of the load: the order the test saw it leave and come back, on one counter. */
interface Exchange {
  trial: number;
  sentAt: number;
  answeredAt: number;
  answer: Answer;
  /** The variant the unit was told it is in, or null when the answer enrolled it nowhere. */
  told: string | null;
}

interface Scenario {
  name: string;
  /** Creates and starts the experiment (and what it serves); returns its id. */
  setup(url: string): Promise<string>;
  request(experimentId: string, unitId: string): { path: string; body: unknown };
  told(body: any): string | null;
}

const assign: Scenario = {
  name: 'assign',
  async setup(url) {
    const created = await send(url, {
      method: 'POST',
      path: '/api/nous/ab-testing/experiments',
      body: { name: 'kill9-assign', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } },
    });
    return started(url, created.body.data.experimentId);
  },
  request: (_, unitId) => ({ path: '/api/nous/ab-testing/assign', body: { unitId } }),
  told: (body) => {
    const a = body.data.assignments[0];
    return a?.inExperiment ? a.variantId : null;
  },
};

/** rank in an A/B experiment whose treatment arm serves an imported ranker (no training needed). */
const rank: Scenario = {
  name: 'rank in an A/B arm',
  async setup(url) {
    await send(url, {
      method: 'POST',
      path: MODELS,
      body: { modelId: 'xgb', name: 'xgb', type: 'ranker', config: { trainingData: 'dataset' } },
    });
    const model = readFileSync(`${FIXTURES}/xgb-model.json`, 'utf8');
    const imported = await send(url, {
      method: 'POST',
      path: `${MODELS}/xgb/versions/import`,
      body: { format: 'xgboost-json', model, activate: true },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const created = await send(url, {
      method: 'POST',
      path: '/api/nous/ab-testing/experiments',
      body: {
        name: 'kill9-rank',
        configuration: { variants: [{ id: 'original' }, { id: 'imported', model: { modelId: 'xgb', version: 1 } }] },
      },
    });
    return started(url, created.body.data.experimentId);
  },
  request: (_, unitId) => ({
    path: '/api/nous/rank',
    body: {
      unitId,
      queryId: `q-${unitId}`,
      results: RESULTS,
    },
  }),
  told: (body) => (body.data.served?.source === 'experiment' ? body.data.served.variantId : null),
};

async function started(url: string, experimentId: string): Promise<string> {
  expect((await send(url, { method: 'POST', path: `/api/nous/ab-testing/experiments/${experimentId}/start` })).status).toBe(200);
  return experimentId;
}

/**
 * What an answer promises about its exposure (docs/api/experiments.md): it is durable once the
 * group commit that follows the answer commits. Groups commit in the order their exposures were
 * answered, so a kill -9 loses a suffix of the answers: the exposures still queued or in the
 * transaction being written. Kill -9 at a random moment of concurrent first assignments, restart
 * on the same database, and check exactly that:
 * - every stored exposure has the variant its unit was told, and was sent by the test;
 * - the variant-day unit counts (same transaction) count exactly the stored exposures;
 * - every missing exposure is a late one, by causality rather than a timing threshold: if the test
 *   had received unit u's answer before it sent unit v, then u was queued before v, so v stored
 *   and u missing is impossible. Each missing answer therefore arrived after the sending of the
 *   last stored unit of its trial. Their number is counted, and bounded by the queue's maxBacklog.
 */
function killDuring(scenario: Scenario, seed: number) {
  describe.each(databaseKinds())(`kill -9 during ${scenario.name} on %s`, (kind) => {
    it(`${TRIALS} trials: stored exposures are what was told and counted once; only the last answers may be missing`, async () => {
      const rand = prng(seed + (kind === 'sqlite' ? 1 : 2));
      const testDatabase = await createTestDatabase(kind);
      const target = testDatabase.target;
      const env =
        target.kind === 'sqlite'
          ? { DATABASE_URL: `sqlite://${target.path}` }
          : { DATABASE_URL: target.url, ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}) };
      const exchanges = new Map<string, Exchange>();
      let clock = 0;
      let server = await startServer(env);
      let experimentId: string;
      try {
        experimentId = await scenario.setup(server.url);
        for (let trial = 1; trial <= TRIALS; trial += 1) {
          const srv = server;
          let stopped = false;
          const clients = Array.from({ length: CLIENTS }, async (_, c) => {
            for (let n = 0; !stopped; n += 1) {
              const unitId = `k9-${trial}-${c}-${n}`;
              const sentAt = (clock += 1);
              const answer = await send(srv.url, { method: 'POST', ...scenario.request(experimentId, unitId), timeoutMs: 30_000 });
              const told = answer.status === 200 ? scenario.told(answer.body) : null;
              exchanges.set(unitId, { trial, sentAt, answeredAt: (clock += 1), answer, told });
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
        for (const [unitId, e] of exchanges) {
          if (e.answer.status !== undefined && e.answer.status !== 200)
            problems.push(`${unitId} answered ${e.answer.status} ${JSON.stringify(e.answer.body)}`);
        }
        for (const [unitId, variant] of stored) {
          const e = exchanges.get(unitId);
          if (!e) problems.push(`${unitId} stored but never sent`);
          else if (e.answer.status === 200 && e.told !== variant) problems.push(`${unitId}: told ${e.told}, stored ${variant}`);
        }
        const perTrial: string[] = [];
        let told = 0;
        let missing = 0;
        for (let trial = 1; trial <= TRIALS; trial += 1) {
          const inTrial = [...exchanges.entries()].filter(([, e]) => e.trial === trial);
          const lastStoredSent = Math.max(0, ...inTrial.filter(([u]) => stored.has(u)).map(([, e]) => e.sentAt));
          const lost = inTrial.filter(([u, e]) => e.told !== null && !stored.has(u));
          for (const [unitId, e] of lost) {
            if (e.answeredAt < lastStoredSent) problems.push(`${unitId}: missing, yet answered before a stored unit was sent`);
          }
          told += inTrial.filter(([, e]) => e.told !== null).length;
          missing += lost.length;
          perTrial.push(`${lost.length}/${inTrial.filter(([, e]) => e.told !== null).length}`);
        }
        console.log(
          `kill -9 during ${scenario.name} on ${kind}: ${exchanges.size} sent, ${told} told a variant, ${stored.size} stored, ` +
            `${missing} answered but lost (per trial, lost/told: ${perTrial.join(' ')}), ` +
            `${[...exchanges.values()].filter((e) => e.answer.status === undefined).length} unanswered`,
        );
        expect(problems).toEqual([]);
        expect(told).toBeGreaterThan(0);
        // The write-behind queue's default maxBacklog: no more can be answered and not yet written.
        for (const p of perTrial) expect(Number(p.split('/')[0])).toBeLessThanOrEqual(20_000);
        expect(Number(counted.rows[0]?.units ?? 0)).toBe(stored.size);
      } finally {
        await database.close();
        await testDatabase.drop();
      }
    });
  });
}

killDuring(assign, 0x61737330);
killDuring(rank, 0x72616e30);
