import { describe, expect, it } from 'vitest';
import { sleep } from '../support/ports.js';
import type { ServiceProcess } from '../support/service-process.js';
import {
  type Answer,
  audit,
  isErrorEnvelope,
  listSessionItems,
  postBatch,
  send,
  type SentBatch,
  startLoad,
  startServer,
  tally,
} from './harness.js';
import { findPostgresBin, PrivatePostgres } from './private-postgres.js';

const CONNECTION_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 2000;
/** Time for the exit of a request on a loaded two-core machine, on top of the configured timeouts. */
const MARGIN_MS = 2000;
/** Refused server: every attempt fails at once; a request waits at most one pool connection wait and one statement. */
const STOPPED_BOUND_MS = CONNECTION_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + MARGIN_MS;
/**
 * Frozen server: a statement waits DATABASE_STATEMENT_TIMEOUT_MS (its connection is then
 * discarded, no ROLLBACK waits on it), and a submission queued behind the group commit in flight
 * waits for that group first. So: two groups × one statement, plus one pool connection wait.
 */
const FROZEN_BOUND_MS = 2 * STATEMENT_TIMEOUT_MS + CONNECTION_TIMEOUT_MS + MARGIN_MS;
const OUTAGE_MS = 4000;

const bin = findPostgresBin();
const required = process.env.REQUIRE_POSTGRES === '1';
if (!bin && !required) {
  const bar = '!'.repeat(78);
  process.stderr.write(
    `\n${bar}\n!! PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb, pg_ctl) are missing.\n!! SKIPPING the PostgreSQL outage test; REQUIRE_POSTGRES=1 makes this an error.\n${bar}\n\n`,
  );
}

/**
 * Stops a private PostgreSQL cluster (never the shared one) with `pg_ctl stop -m immediate`
 * under sustained ingestion, keeps it down, starts it again: requests get a 503 UNAVAILABLE
 * envelope within the configured timeouts, /readyz is red, the service recovers by itself, and
 * nothing acknowledged is lost (503'd requests, retried with their keys, land exactly once).
 */
interface Fault {
  label: string;
  sessionId: string;
  /** Longest acceptable answer while the database is away, from the configured timeouts. */
  boundMs: number;
  /** Takes the database away and returns once it is away. */
  begin(cluster: PrivatePostgres): void;
  /** Brings it back. */
  end(cluster: PrivatePostgres): void;
}

async function outage(fault: Fault): Promise<void> {
  if (!bin) throw new Error('REQUIRE_POSTGRES=1 but the PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb, pg_ctl) are missing');
  const cluster = await PrivatePostgres.create(bin);
  let server: ServiceProcess | undefined;
  try {
    server = await startServer({
      DATABASE_URL: cluster.url,
      DATABASE_TIMEOUT_MS: String(CONNECTION_TIMEOUT_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    const srv = server;
    const sessionId = fault.sessionId;
    const load = startLoad({
      baseUrl: srv.url,
      sessionId,
      prefix: fault.sessionId,
      clients: 4,
      itemsPerRequest: 20,
      stopOnNoAnswer: false,
      pauseAfterFailureMs: 50,
      timeoutMs: 60_000,
    });
    const ready: { at: number; answer: Answer }[] = [];
    const readyz = async () => {
      const answer = await send(srv.url, { method: 'GET', path: '/readyz', timeoutMs: 60_000 });
      ready.push({ at: Date.now(), answer });
      return answer;
    };
    while (load.batches.filter((b) => b.answer.status === 201).length < 20) await sleep(20);
    expect((await readyz()).status).toBe(200);

    const stoppedAt = Date.now();
    fault.begin(cluster);
    const downAnswer = await readyz();
    await sleep(OUTAGE_MS);
    const downAgain = await readyz();

    const startedAt = Date.now();
    fault.end(cluster);
    let recoveredAt: number | undefined;
    while (recoveredAt === undefined && Date.now() - startedAt < 60_000 && !srv.hasExited) {
      if ((await readyz()).status === 200) recoveredAt = Date.now();
      else await sleep(100);
    }
    // Let ingestion run on the recovered database before stopping the load.
    const firstAckAfter = async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !srv.hasExited) {
        const ack = load.batches.find((b) => b.answer.status === 201 && b.startedAt > startedAt);
        if (ack) return ack.endedAt;
        await sleep(50);
      }
      return undefined;
    };
    const ingestRecoveredAt = await firstAckAfter();
    await sleep(500);
    const batches = await load.stop();

    if (srv.hasExited) throw new Error(`the server exited during the outage (${JSON.stringify(await srv.exited)}):\n${srv.tail(60)}`);
    const problems: string[] = [];
    if (downAnswer.status !== 503 || !isErrorEnvelope(downAnswer.body, 'UNAVAILABLE'))
      problems.push(`/readyz right after the stop answered ${downAnswer.status ?? downAnswer.error} ${JSON.stringify(downAnswer.body)}`);
    if (downAgain.status !== 503 || !isErrorEnvelope(downAgain.body, 'UNAVAILABLE'))
      problems.push(`/readyz during the outage answered ${downAgain.status ?? downAgain.error} ${JSON.stringify(downAgain.body)}`);
    if (recoveredAt === undefined) problems.push('/readyz did not turn green within 60 s of PostgreSQL coming back');
    if (ingestRecoveredAt === undefined) problems.push('no feedback was acknowledged within 60 s of PostgreSQL coming back');
    for (const r of ready) {
      if (r.answer.ms > fault.boundMs) problems.push(`/readyz took ${r.answer.ms} ms (bound ${fault.boundMs})`);
    }
    for (const b of batches) {
      const a = b.answer;
      if (a.status === 201) continue;
      if (a.status === 503 && isErrorEnvelope(a.body, 'UNAVAILABLE')) {
        if (a.ms > fault.boundMs) problems.push(`${b.requestId}: the 503 took ${a.ms} ms (bound ${fault.boundMs})`);
        continue;
      }
      problems.push(`${b.requestId} answered ${a.status ?? `nothing (${a.error})`} after ${a.ms} ms: ${JSON.stringify(a.body)}`);
    }
    const unavailableLogged = srv.lines.filter((l) => l.msg === 'database unavailable').length;
    if (unavailableLogged === 0) problems.push('no "database unavailable" line was logged');
    const failedDuringOutage = batches.filter((b) => b.answer.status === 503);
    const before = audit(batches, await listSessionItems(srv.url, sessionId));

    // What failed is retried with the same key and body: afterwards every item is there once.
    const retried: SentBatch[] = [];
    for (const b of batches.filter((x) => x.answer.status !== 201)) {
      const answer = await postBatch(srv.url, b.requestId, b.body);
      if (answer.status !== 201) problems.push(`retry of ${b.requestId} answered ${answer.status ?? answer.error}`);
      retried.push({ ...b, answer });
    }
    const found = await listSessionItems(srv.url, sessionId);
    const after = audit([...batches.filter((b) => b.answer.status === 201), ...retried], found);
    const sent = batches.reduce((n, b) => n + b.queryIds.length, 0);
    if (before.lost.length) problems.push(`${before.lost.length} acknowledged items lost, e.g. ${before.lost.slice(0, 3).join(', ')}`);
    if (after.duplicates.length) problems.push(`duplicated items ${after.duplicates.slice(0, 5).join(', ')}`);
    if (after.partial.length) problems.push(`partial submissions ${after.partial.slice(0, 5).join(', ')}`);
    if (after.found !== sent) problems.push(`${after.found} items found after retries, ${sent} sent`);

    const maxMs = (answers: Answer[]) => answers.reduce((m, a) => Math.max(m, a.ms), 0);
    console.log(
      `${fault.label} (${OUTAGE_MS} ms): requests ${batches.length}: ${JSON.stringify(tally(batches.map((b) => b.answer)))}; ` +
        `slowest 503 ${maxMs(failedDuringOutage.map((b) => b.answer))} ms (bound ${fault.boundMs}); /readyz while down ${downAnswer.status}/${downAgain.status}; ` +
        `"database unavailable" log lines ${unavailableLogged}; /readyz green ${recoveredAt === undefined ? 'never' : `${recoveredAt - startedAt} ms`} after it came back, ` +
        `first 201 ${ingestRecoveredAt === undefined ? 'never' : `${ingestRecoveredAt - startedAt} ms`} after; outage seen by clients ${(ingestRecoveredAt ?? Date.now()) - stoppedAt} ms; ` +
        `acknowledged items ${before.acknowledgedItems}, lost ${before.lost.length}; 503'd requests committed anyway ${before.unacknowledgedPresent}; ` +
        `after idempotent retries ${after.found}/${sent} items, duplicates ${after.duplicates.length}`,
    );
    expect(problems).toEqual([]);
    expect(failedDuringOutage.length).toBeGreaterThan(0);
  } finally {
    await server?.stop();
    cluster.destroy();
  }
}

describe.runIf(bin || required)('PostgreSQL goes away during ingestion', () => {
  it('stopped (pg_ctl stop -m immediate): 503 UNAVAILABLE while down, /readyz red, recovery without a restart, nothing acknowledged lost', () =>
    outage({
      label: 'PostgreSQL stopped (pg_ctl stop -m immediate, then pg_ctl start)',
      sessionId: 'pg-stopped',
      boundMs: STOPPED_BOUND_MS,
      begin: (c) => c.stopImmediate(),
      end: (c) => c.start(),
    }));

  it('frozen (SIGSTOP, connections open, no answers): 503 UNAVAILABLE within the configured timeouts, recovery on SIGCONT, nothing acknowledged lost', () =>
    outage({
      label: 'PostgreSQL frozen (SIGSTOP every cluster process, then SIGCONT)',
      sessionId: 'pg-frozen',
      boundMs: FROZEN_BOUND_MS,
      begin: (c) => c.freeze(),
      end: (c) => c.thaw(),
    }));
});
