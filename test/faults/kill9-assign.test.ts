import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/storage/schema.js';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, openTestDatabase } from '../support/test-database.js';
import { sleep } from '../support/ports.js';
import { type Answer, prng, send, startServer } from './harness.js';

const TRIALS = 8;
const CLIENTS = 8;
const MODELS = '/api/nous/learn/models';
const FIXTURES = fileURLToPath(new URL('../fixtures/imported-models', import.meta.url));
// Six held-out rows as a rank request's results (the imported ranker's own features).
const heldout = JSON.parse(readFileSync(`${FIXTURES}/xgb-heldout.json`, 'utf8')) as { rows: { features: Record<string, number> }[] };
const RESULTS = heldout.rows.slice(0, 6).map((r, i) => ({ resultId: `doc-${i}`, features: r.features }));

/** One request of the load: the order the test saw it leave and come back, on one counter. */
interface Exchange {
  trial: number;
  sentAt: number;
  answeredAt: number;
  answer: Answer;
  /** What the answer promised to store (a variant, or an interleaved list), or null when it promised nothing. */
  told: string | null;
}

/** What the database holds of the answers, in `told`'s terms, and the scenario's own consistency problems. */
interface Stored {
  byUnit: Map<string, string>;
  problems: string[];
}

interface Scenario {
  name: string;
  /** What an answer promises to write behind it, for the test's title and report. */
  kept: string;
  /** Creates and starts the experiment (and what it serves); returns its id. */
  setup(url: string): Promise<string>;
  request(experimentId: string, unitId: string): { path: string; body: unknown };
  told(body: any): string | null;
  stored(db: Kysely<Database>, experimentId: string): Promise<Stored>;
}

/** Stored exposures by unit, and whether the variant-day unit counts (same transaction) count exactly them. */
async function exposures(db: Kysely<Database>, experimentId: string): Promise<Stored> {
  const byUnit = new Map(
    (await db.selectFrom('experiment_units').select(['unit_id', 'variant_id']).where('experiment_id', '=', experimentId).execute()).map(
      (r) => [r.unit_id, r.variant_id],
    ),
  );
  const counted = await sql<{ units: number | string | null }>`
    select sum(units) as units from experiment_variant_units where experiment_id = ${experimentId}`.execute(db);
  const units = Number(counted.rows[0]?.units ?? 0);
  return { byUnit, problems: units === byUnit.size ? [] : [`variant-day counts hold ${units} units, ${byUnit.size} exposures stored`] };
}

const assign: Scenario = {
  name: 'assign',
  kept: 'exposures',
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
  stored: exposures,
};

/** rank in an A/B experiment whose treatment arm serves an imported ranker (no training needed). */
const rank: Scenario = {
  name: 'rank in an A/B arm',
  kept: 'exposures',
  setup: (url) => rankingExperiment(url, 'kill9-rank', {}),
  request: (_, unitId) => rankRequest(unitId),
  told: (body) => (body.data.served?.source === 'experiment' ? body.data.served.variantId : null),
  stored: exposures,
};

/**
 * rank in a team-draft interleaving experiment (the original order against the imported ranker):
 * what is checked is the interleaved list each answer showed, which is written behind the answer on
 * its own queue (ranking-and-interleaving.md), the same promise as exposures: a suffix may be lost.
 */
const teamDraft: Scenario = {
  name: 'rank in a team draft',
  kept: 'interleaved lists',
  setup: (url) => rankingExperiment(url, 'kill9-draft', { type: 'interleaving' }),
  request: (_, unitId) => rankRequest(unitId),
  told: (body) =>
    body.data.served?.source === 'experiment'
      ? (body.data.results as { resultId: string; team: string }[]).map((r) => `${r.resultId}:${r.team}`).join(' ')
      : null,
  async stored(db, experimentId) {
    const rows = await db
      .selectFrom('interleaved_queries')
      .select(['unit_id', 'query_id', 'list'])
      .where('experiment_id', '=', experimentId)
      .execute();
    const problems = rows.filter((r) => r.query_id !== `q-${r.unit_id}`).map((r) => `${r.unit_id}: list stored under query ${r.query_id}`);
    const byUnit = new Map(
      rows.map((r) => {
        const list = JSON.parse(r.list) as { teams: string[]; results: [string, number][] };
        return [r.unit_id, list.results.map(([id, team]) => `${id}:${list.teams[team]}`).join(' ')];
      }),
    );
    // The unit's exposure goes on the assignments' queue: its own promise (the cases above) holds too.
    return { byUnit, problems: [...problems, ...(await exposures(db, experimentId)).problems] };
  },
};

/** Registers the imported ranker and starts a ranking experiment: the original order against it. */
async function rankingExperiment(url: string, name: string, extra: Record<string, unknown>): Promise<string> {
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
      name,
      configuration: { ...extra, variants: [{ id: 'original' }, { id: 'imported', model: { modelId: 'xgb', version: 1 } }] },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return started(url, created.body.data.experimentId);
}

const rankRequest = (unitId: string) => ({ path: '/api/nous/rank', body: { unitId, queryId: `q-${unitId}`, results: RESULTS } });

async function started(url: string, experimentId: string): Promise<string> {
  expect((await send(url, { method: 'POST', path: `/api/nous/ab-testing/experiments/${experimentId}/start` })).status).toBe(200);
  return experimentId;
}

/**
 * What an answer promises about its exposure (docs/api/experiments.md) or its interleaved list
 * (ranking-and-interleaving.md): it is durable once the group commit that follows the answer
 * commits. Groups commit in the order they were answered, so a kill -9 loses a suffix of the
 * answers: what is still queued or in the transaction being written. Kill -9 at a random moment of
 * concurrent first assignments, restart on the same database, and check exactly that:
 * - every stored exposure (list) is the variant (list) its unit was told, and was sent by the test;
 * - the variant-day unit counts (same transaction) count exactly the stored exposures;
 * - every missing exposure is a late one, by causality rather than a timing threshold: if the test
 *   had received unit u's answer before it sent unit v, then u was queued before v, so v stored
 *   and u missing is impossible. Each missing answer therefore arrived after the sending of the
 *   last stored unit of its trial. Their number is counted, and bounded by the queue's maxBacklog.
 */
function killDuring(scenario: Scenario, seed: number) {
  describe.each(databaseKinds())(`kill -9 during ${scenario.name} on %s`, (kind) => {
    it(`${TRIALS} trials: stored ${scenario.kept} are what was told, each once; only the last answers may be missing`, async () => {
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
        const held = await scenario.stored(database.db, experimentId);
        const stored = held.byUnit;
        const problems: string[] = [...held.problems];
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
          `kill -9 during ${scenario.name} on ${kind}: ${exchanges.size} sent, ${told} promised ${scenario.kept}, ${stored.size} stored, ` +
            `${missing} answered but lost (per trial, lost/told: ${perTrial.join(' ')}), ` +
            `${[...exchanges.values()].filter((e) => e.answer.status === undefined).length} unanswered`,
        );
        expect(problems).toEqual([]);
        expect(told).toBeGreaterThan(0);
        // The write-behind queue's default maxBacklog: no more can be answered and not yet written.
        for (const p of perTrial) expect(Number(p.split('/')[0])).toBeLessThanOrEqual(20_000);
      } finally {
        await database.close();
        await testDatabase.drop();
      }
    });
  });
}

killDuring(assign, 0x61737330);
killDuring(rank, 0x72616e30);
killDuring(teamDraft, 0x74656130);
