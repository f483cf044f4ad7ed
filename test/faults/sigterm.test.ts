import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { sleep } from '../support/ports.js';
import { createFaultDatabase, faultDatabaseKinds } from './databases.js';
import { type Answer, audit, feedbackBatch, isErrorEnvelope, listSessionItems, send, startLoad, startServer, tally } from './harness.js';

const GRACE_MS = 3000;
/** Process start-up of the exit path (closing the pool, flushing logs) on a loaded two-core machine. */
const EXIT_MARGIN_MS = 2000;

/** Opens a connection and sends a POST whose body never completes: an in-flight request that cannot finish. */
function stalledUpload(port: number): Promise<{ socket: net.Socket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /api/cortex/feedback HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nX-Request-Id: stalled-upload\r\n\r\n{"sessionId":"stalled","feedback":[',
      );
      resolve({ socket, closed: new Promise((r) => socket.on('close', () => r(Date.now()))) });
    });
    socket.on('error', reject);
  });
}

/**
 * A POST sent in two halves on a keep-alive connection: the server has routed it (logged
 * "incoming request") before the signal, and its body is finished after the drain began.
 */
function slowUpload(baseUrl: string, agent: http.Agent, requestId: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  let finish!: () => void;
  const answer = new Promise<Answer>((resolve) => {
    const started = Date.now();
    const req = http.request(`${baseUrl}/api/cortex/feedback`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'x-request-id': requestId,
        'idempotency-key': requestId,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          headers: res.headers,
          ms: Date.now() - started,
        }),
      );
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ status: undefined, body: undefined, error: e.code ?? e.message, ms: Date.now() - started }),
    );
    req.write(payload.subarray(0, half));
    finish = () => req.end(payload.subarray(half));
  });
  return { answer, finish: () => finish() };
}

/** What the drain answered, shared by the two tests of one database kind. */
interface DrainResult {
  answers: { what: string; answer: Answer }[];
}

describe.each(faultDatabaseKinds())('SIGTERM during ingestion on %s', (kind) => {
  let drain: DrainResult | undefined;

  it(`in-flight requests finish, new connections are refused, the process exits within SHUTDOWN_GRACE_MS=${GRACE_MS}`, async () => {
    const database = await createFaultDatabase(kind);
    // At debug, each request also logs "incoming request" when routed (at info, only its answer).
    const env = { ...database.env, SHUTDOWN_GRACE_MS: String(GRACE_MS), LOG_LEVEL: 'debug' };
    const sessionId = `sigterm-${kind}`;
    let server = await startServer(env);
    try {
      const load = startLoad({
        baseUrl: server.url,
        sessionId,
        prefix: `st${kind[0]}`,
        clients: 6,
        itemsPerRequest: 200,
        stopOnNoAnswer: true,
        pauseAfterFailureMs: 20,
      });
      const stalled = await stalledUpload(server.port);
      const slowAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const slowBody = feedbackBatch(sessionId, `st${kind[0]}-slow`, 50);
      const slow = slowUpload(server.url, slowAgent, `st${kind[0]}-slow`, slowBody);
      const routed = (id: string) => server.lines.some((l) => l.msg === 'incoming request' && l.reqId === id);
      // Let the load run, and the slow upload be routed, then signal.
      while (load.batches.filter((b) => b.answer.status === 201).length < 12 || !routed(`st${kind[0]}-slow`)) await sleep(20);
      const signalledAt = Date.now();
      server.kill('SIGTERM');
      while (!server.lines.some((l) => l.msg === 'shutting down')) await sleep(10);
      // The drain has begun: finish the in-flight upload, then ask again on the same connection.
      slow.finish();
      const slowAnswer = await slow.answer;
      const followUpId = `st${kind[0]}-after-slow`;
      const followUp = await send(server.url, {
        method: 'POST',
        path: '/api/cortex/feedback',
        body: feedbackBatch(sessionId, followUpId, 1),
        headers: { 'x-request-id': followUpId },
        agent: slowAgent,
      });
      slowAgent.destroy();

      // New connections during the drain: probe until the process is gone.
      const probes: { at: number; answer: Answer; afterShutdownLog: boolean }[] = [];
      while (!server.hasExited) {
        const afterShutdownLog = server.lines.some((l) => l.msg === 'shutting down');
        const answer = await send(server.url, { method: 'GET', path: '/healthz', timeoutMs: GRACE_MS + EXIT_MARGIN_MS });
        probes.push({ at: Date.now(), answer, afterShutdownLog });
        await sleep(50);
      }
      const exit = await server.exited;
      const batches = await load.stop();
      stalled.socket.destroy();

      const exitMs = exit.at - signalledAt;
      const lines = server.lines;
      const shutdownAt = lines.findIndex((l) => l.msg === 'shutting down');
      const incomingAt = new Map<string, number>();
      lines.forEach((l, i) => {
        if (l.msg === 'incoming request' && typeof l.reqId === 'string' && !incomingAt.has(l.reqId)) incomingAt.set(l.reqId, i);
      });
      const problems: string[] = [];
      if (slowAnswer.status !== 201)
        problems.push(
          `the upload in flight at SIGTERM answered ${slowAnswer.status ?? slowAnswer.error} ${JSON.stringify(slowAnswer.body)}`,
        );
      if (followUp.status !== undefined && followUp.status !== 503)
        problems.push(`a new request on a kept-alive connection during the drain answered ${followUp.status}`);
      const slowBatch = {
        requestId: `st${kind[0]}-slow`,
        body: slowBody,
        queryIds: slowBody.feedback.map((f) => f.queryId),
        answer: slowAnswer,
        startedAt: signalledAt,
        endedAt: Date.now(),
      };
      batches.push(slowBatch);
      const acceptedBefore = batches.filter((b) => (incomingAt.get(b.requestId) ?? Infinity) < shutdownAt);
      for (const b of acceptedBefore) {
        if (b.answer.status !== 201)
          problems.push(`${b.requestId} was accepted before shutdown began but answered ${b.answer.status ?? b.answer.error}`);
      }
      for (const b of batches) {
        const s = b.answer.status;
        if (s === undefined || s === 201) continue;
        if (s !== 503)
          problems.push(
            `${b.requestId} answered ${s} ${JSON.stringify(b.answer.body)} during the drain (want 201, 503, or a refused connection)`,
          );
      }
      const firstRefused = probes.findIndex((p) => p.answer.error === 'ECONNREFUSED');
      const refusedProbes = probes.filter((p) => p.answer.error === 'ECONNREFUSED').length;
      if (firstRefused < 0)
        problems.push(`no new connection was refused during the drain: ${JSON.stringify(tally(probes.map((p) => p.answer)))}`);
      else if (probes.slice(firstRefused).some((p) => p.answer.error !== 'ECONNREFUSED'))
        problems.push(`a new connection was accepted after one had been refused: ${JSON.stringify(tally(probes.map((p) => p.answer)))}`);
      for (const p of probes.slice(0, Math.max(firstRefused, 0))) {
        if (p.answer.status !== 200 && p.answer.status !== 503 && p.answer.error !== 'ECONNRESET')
          problems.push(`probe before the listener closed answered ${p.answer.status ?? p.answer.error}`);
      }

      const drainedLog = server.raw;
      server = await startServer(env);
      const found = audit(batches, await listSessionItems(server.url, sessionId));
      if (found.lost.length) problems.push(`${found.lost.length} acknowledged items lost`);
      if (found.duplicates.length) problems.push(`duplicated items ${found.duplicates.slice(0, 5).join(', ')}`);
      if (found.partial.length) problems.push(`partial submissions ${found.partial.slice(0, 5).join(', ')}`);

      console.log(
        `SIGTERM on ${kind}: exit code ${exit.code} after ${exitMs} ms (grace ${GRACE_MS} ms); ` +
          `requests ${batches.length}: ${JSON.stringify(tally(batches.map((b) => b.answer)))}; ` +
          `accepted before shutdown ${acceptedBefore.length}, all 201: ${acceptedBefore.every((b) => b.answer.status === 201)}; ` +
          `acknowledged items ${found.acknowledgedItems}, found ${found.found}, lost ${found.lost.length}, duplicates ${found.duplicates.length}; ` +
          `upload in flight at SIGTERM: ${slowAnswer.status ?? slowAnswer.error}; next request on its connection: ${followUp.status ?? followUp.error}; ` +
          `new-connection probes during the drain ${probes.length} (${refusedProbes} refused, ${JSON.stringify(tally(probes.map((p) => p.answer)))}); stalled upload closed ${(await stalled.closed) - signalledAt} ms after SIGTERM`,
      );
      drain = {
        answers: [
          ...batches.map((b) => ({ what: `POST ${b.requestId}`, answer: b.answer })),
          { what: 'POST on the kept-alive connection after the drain began', answer: followUp },
          ...probes.map((p, i) => ({ what: `new-connection probe ${i}`, answer: p.answer })),
        ],
      };
      if (process.env.FAULTS_DEBUG) {
        for (const b of batches.filter((x) => x.answer.status !== 201))
          console.log(
            b.requestId,
            b.answer,
            'incoming line',
            incomingAt.get(b.requestId),
            'shutdown line',
            shutdownAt,
            'started',
            b.startedAt - signalledAt,
            'ended',
            b.endedAt - signalledAt,
          );
        for (const p of probes.filter((x) => x.answer.status !== undefined)) console.log('probe', p.at - signalledAt, p.answer);
        console.log(
          drainedLog
            .filter((l) => !l.includes('"incoming request"') || l.includes('stalled'))
            .slice(-30)
            .join('\n'),
        );
      }
      expect(problems).toEqual([]);
      expect(acceptedBefore.length).toBeGreaterThan(0);
      expect(exit.code).toBe(0);
      // The one timing bound here is the documented one: the grace period, plus the exit path.
      expect(exitMs).toBeLessThanOrEqual(GRACE_MS + EXIT_MARGIN_MS);
      expect(server.lines.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
      await database.drop();
    }
  });

  it('every refusal during the drain is a 503 UNAVAILABLE envelope, not a bare Fastify body', () => {
    expect(drain, 'the SIGTERM test above did not get as far as the drain').toBeDefined();
    const bad = drain!.answers
      .filter((a) => a.answer.status === 503 && !isErrorEnvelope(a.answer.body, 'UNAVAILABLE'))
      .map((a) => `${a.what}: ${JSON.stringify(a.answer.body)}`);
    expect(bad).toEqual([]);
  });
});
