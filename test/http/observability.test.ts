import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

describeOnEveryDatabase('observability', (kind) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const t = useTestApp(kind, { logger: { level: 'info', stream } });

  it('exposes request, feedback, exposure and pool metrics, all named searchloop_*', async () => {
    await postJson(t.app, '/api/cortex/feedback', {
      sessionId: 's',
      feedback: [
        { queryId: 'q', rating: 1 },
        { queryId: 'q', rating: 2 },
      ],
    });
    await postJson(t.app, '/api/cortex/feedback', {
      sessionId: 's',
      feedback: [
        { queryId: 'q', rating: 9 },
        { queryId: 'q', rating: 1 },
        { queryId: 'q', rating: 1 },
      ],
    });
    const e = await postJson(t.app, '/api/nous/ab-testing/experiments', {
      name: 'metrics',
      configuration: { variants: [{ id: 'a' }, { id: 'b' }] },
    });
    await request(t.app, { method: 'POST', url: `/api/nous/ab-testing/experiments/${e.body.data.experimentId}/start` });
    await postJson(t.app, '/api/nous/ab-testing/assign', { unitId: 'u1' });
    await postJson(t.app, '/api/nous/ab-testing/assign', { unitId: 'u2' });
    await t.container.metrics.observeJob('attribution', () => t.container.experiments.services.attributionService.catchUp());

    const res = await request(t.app, { method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/plain');
    const text = String(res.body);
    expect(text).toContain('searchloop_http_requests_total{method="POST",route="/api/cortex/feedback",status="201"} 1');
    expect(text).toContain('searchloop_http_requests_total{method="POST",route="/api/cortex/feedback",status="400"} 1');
    // The second call of a series counts on the label child the first one made.
    expect(text).toContain('searchloop_http_requests_total{method="POST",route="/api/nous/ab-testing/assign",status="200"} 2');
    expect(text).toContain(
      'searchloop_http_request_duration_seconds_count{method="POST",route="/api/nous/ab-testing/assign",status="200"} 2',
    );
    expect(text).toMatch(
      /searchloop_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/cortex\/feedback",status="201"\}/,
    );
    expect(text).toContain('searchloop_feedback_items_total{outcome="accepted",reason=""} 2');
    expect(text).toContain('searchloop_feedback_items_total{outcome="rejected",reason="FST_ERR_VALIDATION /feedback/*/rating"} 3');
    expect(text).toContain('searchloop_exposures_total 2');
    expect(text).toContain('searchloop_job_runs_total{job="attribution",outcome="success"} 1');
    expect(text).toMatch(/searchloop_db_pool_connections\{state="total"\} \d+/);
    expect(text).toContain('searchloop_process_cpu_seconds_total');
    const names = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!);
    expect(names.every((n) => n.startsWith('searchloop_'))).toBe(true);
  });

  it('puts the request id in the X-Request-Id header and in every log line of that request', async () => {
    lines.length = 0;
    const res = await request(t.app, { method: 'GET', url: '/api/cortex/feedback?limit=1', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
    const mine = lines.map((l) => JSON.parse(l) as { reqId?: string; msg?: string }).filter((l) => l.reqId === 'trace-abc-123');
    // One line per request, when it is answered (observability/request-log.ts).
    expect(mine.map((l) => l.msg)).toEqual([expect.stringMatching(/^GET \/api\/cortex\/feedback\?limit=1 200 [\d.]+ ms$/)]);
  });
});
