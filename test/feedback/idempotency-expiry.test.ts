import { expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

describeOnEveryDatabase('idempotency key expiry', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  it('removes keys older than 24 hours and keeps younger ones', async () => {
    const body = { sessionId: 'exp', feedback: [{ queryId: 'q', rating: 1 }] };
    const old = await postJson(t.app, '/api/cortex/feedback', body, { 'idempotency-key': 'old' });
    clock.advance(2 * 3_600_000);
    await postJson(t.app, '/api/cortex/feedback', body, { 'idempotency-key': 'young' });
    clock.advance(23 * 3_600_000);
    expect(await t.container.feedback.services.feedbackService.expireIdempotencyKeys()).toBe(1);
    const keys = await t.container.database.db.selectFrom('idempotency_keys').select('key').execute();
    expect(keys).toEqual([{ key: 'young' }]);
    const reuse = await postJson(t.app, '/api/cortex/feedback', body, { 'idempotency-key': 'old' });
    expect(reuse.body.data.feedbackId).not.toBe(old.body.data.feedbackId);
  });
});
