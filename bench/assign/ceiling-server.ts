import Fastify from 'fastify';

/**
 * The framework's ceiling: a bare Fastify route that parses the same JSON body and answers a
 * constant of the size Searchloop's assign answers, with no database and no hashing.
 */
const size = Number(process.env.RESPONSE_BYTES ?? 300);
const constant = { success: true, data: { padding: 'x'.repeat(Math.max(0, size - 40)) } };
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
app.post('/api/nous/ab-testing/assign', async () => constant);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
