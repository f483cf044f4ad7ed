import Fastify from 'fastify';
import { FeedbackSubmissionBody } from '../../src/feedback/feedback.schemas.js';
import { registerValidation } from '../../src/http/validation.js';

/**
 * The framework ceiling for ingest: Fastify parsing and validating the same body with the same
 * schema and validator settings, answering a constant 201, writing nothing.
 */
const app = Fastify({ logger: false });
registerValidation(app);
const constant = {
  success: true,
  data: { feedbackId: '01KAAAAAAAAAAAAAAAAAAAAAAA', processed: true, timestamp: new Date().toISOString(), items: 1 },
};
app.get('/healthz', async () => ({ ok: true }));
app.post('/api/cortex/feedback', { schema: { body: FeedbackSubmissionBody } }, async (_req, reply) => reply.status(201).send(constant));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
