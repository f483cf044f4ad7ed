import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { createTestDatabase, describeOnEveryDatabase } from '../support/test-database.js';

describeOnEveryDatabase('restart', (kind) => {
  it('data acknowledged before a graceful stop is there after the next start', async () => {
    const testDb = await createTestDatabase(kind);
    const config = { ...loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }), database: testDb.target };
    try {
      const first = await startServer(config);
      const posted = await fetch(`${first.address}/api/cortex/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sessionId: 'durable',
          feedback: [
            { queryId: 'q', rating: 2 },
            { queryId: 'q', metadata: { userAction: 'click' } },
          ],
        }),
      });
      expect(posted.status).toBe(201);
      const { data } = (await posted.json()) as { data: { feedbackId: string } };
      await first.stop();

      const second = await startServer(config);
      try {
        const back = await fetch(`${second.address}/api/cortex/feedback/${data.feedbackId}`);
        expect(back.status).toBe(200);
        const body = (await back.json()) as { data: { items: unknown[] } };
        expect(body.data.items).toHaveLength(2);
      } finally {
        await second.stop();
      }
    } finally {
      await testDb.drop();
    }
  });
});
