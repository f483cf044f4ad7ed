import { expect, it } from 'vitest';
import { encodeCursor } from '../../src/common/pagination.js';
import { createMigrator, migrateToLatest } from '../../src/storage/migrator.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';
const T0 = Date.parse('2026-11-22T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

// Issue 12: from a query to the experiments that cover it (experiment_query_sums, kept by attribution).
describeOnEveryDatabase('experiments covering a query', (kind) => {
  const clock = new TestClock(T0 - 10_000);
  const t = useTestApp(kind, { clock });
  const coverage = (hash: string, query = '') => getJson(t.app, `${BASE}/queries/${encodeURIComponent(hash)}/experiments${query}`);
  const item = (queryId: string, userAction: string, queryHash?: string) => ({
    queryId,
    metadata: { userAction, ...(queryHash ? { queryHash } : {}), customMetadata: { position: 1 } },
  });
  const feedback = async (sessionId: string, items: unknown[]) =>
    expect((await postJson(t.app, '/api/cortex/feedback', { sessionId, feedback: items })).statusCode).toBe(201);
  /** Attribution to the end of the backlog (on PostgreSQL another test file may hold the lock for a moment). */
  async function attribute() {
    for (;;) {
      await t.container.experiments.services.attributionService.catchUp();
      const left = await t.database.db
        .selectFrom('feedback_items')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('attributed', '=', 0)
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  async function runningExperiment(name: string): Promise<string> {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name,
      configuration: { variants: [{ id: 'control' }, { id: 'treatment' }], seed: 'coverage' },
    });
    const id = created.body.data.experimentId as string;
    expect((await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` })).statusCode).toBe(200);
    return id;
  }
  /** Two sessions of each variant (sessions are assigned until both variants have two). */
  async function sessionsByVariant(id: string, prefix: string): Promise<Record<string, string[]>> {
    const by: Record<string, string[]> = { control: [], treatment: [] };
    for (let i = 0; by.control!.length < 2 || by.treatment!.length < 2; i += 1) {
      const unitId = `${prefix}-${i}`;
      const variant = (await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId })).body.data.variantId as string;
      if (by[variant]!.length < 2) by[variant]!.push(unitId);
    }
    return by;
  }

  let x = '';
  let y = '';
  let xSessions: Record<string, string[]> = {};

  it('counts per phase and variant the searches and clicked searches of the query, most recently seen first, in pages', async () => {
    x = await runningExperiment('coverage-x');
    // Before their exposure, the sessions search under another hash with the queryId they use later: not counted.
    for (let i = 0; i < 8; i += 1) await feedback(`x-${i}`, [item(`x-${i}-a`, 'impression', 'early')]);
    clock.advance(1000);
    xSessions = await sessionsByVariant(x, 'x');
    const [c1, c2] = xSessions.control!;
    const [t1, t2] = xSessions.treatment!;
    expect([c1, c2, t1, t2].every((s) => Number(s!.slice(2)) < 8)).toBe(true);
    clock.set(T0);
    await feedback(c1!, [
      item(`${c1}-a`, 'impression', 'shoes'),
      item(`${c1}-a`, 'click', 'shoes'),
      item(`${c1}-b`, 'impression', 'socks'),
    ]);
    await feedback(c2!, [item(`${c2}-a`, 'impression', 'shoes')]);
    await feedback(t1!, [item(`${t1}-a`, 'impression', 'shoes'), item(`${t1}-a`, 'click', 'shoes')]);
    await feedback(t2!, [item(`${t2}-a`, 'impression', 'shoes'), item(`${t2}-b`, 'impression')]); // -b has no hash
    await attribute();
    // t2's click arrives a minute later, in another attribution batch: its search is now clicked, not a new one.
    clock.set(T0 + 60_000);
    await feedback(t2!, [item(`${t2}-a`, 'click', 'shoes'), item(`${t2}-b`, 'click')]);
    await attribute();

    // A second experiment sees shoes later; then x moves to a new phase and sees it last of all.
    clock.set(T0 + 90_000);
    y = await runningExperiment('coverage-y');
    const yControl = (await sessionsByVariant(y, 'y')).control![0]!;
    clock.set(T0 + 120_000);
    await feedback(yControl, [item('y-a', 'impression', 'shoes')]);
    const phased = await request(t.app, {
      method: 'PATCH',
      url: `${BASE}/experiments/${x}`,
      payload: { configuration: { seed: 'coverage-2' }, newPhase: true },
    });
    expect(phased.statusCode, JSON.stringify(phased.body)).toBe(200);
    const p1 = (await postJson(t.app, `${BASE}/experiments/${x}/assign`, { unitId: 'x-phase1' })).body.data;
    expect(p1.phase).toBe(1);
    clock.set(T0 + 180_000);
    await feedback('x-phase1', [item('p1-a', 'impression', 'shoes'), item('p1-a', 'click', 'shoes')]);
    await feedback(c2!, [item(`${c2}-a`, 'click', 'shoes')]); // after phase 0 ended: counts for no one
    await attribute();

    const variant = (variantId: string, searches: number, clickedSearches: number, abandonmentRate: number, lastSeen: number) => ({
      variantId,
      searches,
      clickedSearches,
      abandonmentRate,
      lastSeen: iso(lastSeen),
    });
    const row = (id: string, name: string, phase: number, lastSeen: number, variants: unknown[]) => ({
      experimentId: id,
      name,
      status: 'running',
      type: 'ab',
      phase,
      lastSeen: iso(lastSeen),
      variants,
    });
    const expected = [
      row(x, 'coverage-x', 1, T0 + 180_000, [variant(p1.variantId, 1, 1, 0, T0 + 180_000)]),
      row(y, 'coverage-y', 0, T0 + 120_000, [variant('control', 1, 0, 1, T0 + 120_000)]),
      row(x, 'coverage-x', 0, T0 + 60_000, [variant('control', 2, 1, 0.5, T0), variant('treatment', 2, 2, 0, T0 + 60_000)]),
    ];
    const all = await coverage('shoes');
    expect(all.statusCode, JSON.stringify(all.body)).toBe(200);
    expect(all.body).toEqual({ success: true, data: { items: expected, nextCursor: null } });

    const first = (await coverage('shoes', '?limit=2')).body.data;
    expect(first.items).toEqual(expected.slice(0, 2));
    expect(typeof first.nextCursor).toBe('string');
    const second = (await coverage('shoes', `?limit=2&cursor=${first.nextCursor}`)).body.data;
    expect(second).toEqual({ items: expected.slice(2), nextCursor: null });

    expect((await coverage('socks')).body.data.items).toEqual([row(x, 'coverage-x', 0, T0, [variant('control', 1, 0, 1, T0)])]);
    // A query no experiment attributed, and the hash sent only before exposure: empty, not 404.
    expect((await coverage('never-sent')).body).toEqual({ success: true, data: { items: [], nextCursor: null } });
    expect((await coverage('early')).body.data.items).toEqual([]);
  });

  it('answers 400 naming the field for a bad limit, cursor or query hash', async () => {
    expectError(await coverage('shoes', '?limit=101'), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await coverage('shoes', '?limit=0'), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await coverage('shoes', '?limit=ten'), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await coverage('shoes', '?cursor=not-a-cursor'), 400, 'VALIDATION_ERROR', '/cursor');
    expectError(
      await coverage('shoes', `?cursor=${encodeCursor('1700000000000.01HZZZZZZZZZZZZZZZZZZZZZZZ')}`),
      400,
      'VALIDATION_ERROR',
      '/cursor',
    );
    expectError(await coverage(''), 400, 'VALIDATION_ERROR', '/queryHash');
    // Up to the schema's 256 characters (here 4-byte ones, 3 072 characters percent-encoded) the hash reaches the route.
    expect((await coverage('😀'.repeat(256))).statusCode).toBe(200);
    expectError(await coverage('é'.repeat(257)), 400, 'VALIDATION_ERROR', '/queryHash');
    expectError(await coverage('shoes', '?sort=name'), 400, 'VALIDATION_ERROR');
    expect((await coverage('shoes', '?limit=100')).statusCode).toBe(200);
  });

  it('is in the OpenAPI document under experiments', async () => {
    const doc = (await getJson(t.app, '/openapi.json')).body;
    const op = doc.paths['/api/nous/ab-testing/queries/{queryHash}/experiments']?.get;
    expect(op?.tags).toEqual(['experiments']);
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '400']);
  });

  it('migration 0080 backfills from the searches attribution recorded before it the same rows attribution keeps', async () => {
    const read = async () =>
      (
        await t.database.db
          .selectFrom('experiment_query_sums')
          .selectAll()
          .orderBy('experiment_id')
          .orderBy('phase')
          .orderBy('variant_id')
          .orderBy('query_hash')
          .execute()
      ).map((r) => ({ ...r, searches: Number(r.searches), clicked_searches: Number(r.clicked_searches), last_seen: Number(r.last_seen) }));
    const kept = await read();
    expect(kept.length).toBe(5); // x: phase 0 control shoes and socks, treatment shoes; phase 1 shoes; y: control shoes
    const migrator = createMigrator(t.database);
    expect((await migrator.migrateTo('0075-analytics-results')).error).toBeUndefined();
    await migrateToLatest(t.database);
    expect(await read()).toEqual(kept);
  });

  // Last: once a key exists, every request of this app needs one.
  it('needs the read scope: a read key reads, an ingest key is refused, no key is 401', async () => {
    const bearer = async (scope: 'read' | 'ingest') => ({
      authorization: `Bearer ${(await t.container.auth.services.apiKeys.create(`coverage-${scope}`, scope)).key}`,
    });
    const url = `${BASE}/queries/shoes/experiments`;
    const read = await request(t.app, { method: 'GET', url, headers: await bearer('read') });
    expect(read.statusCode).toBe(200);
    expect(read.body.data.items.length).toBe(3);
    expectError(await request(t.app, { method: 'GET', url, headers: await bearer('ingest') }), 403, 'FORBIDDEN');
    expectError(await getJson(t.app, url), 401, 'UNAUTHORIZED');
  });
});
