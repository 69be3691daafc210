import Fastify from 'fastify';

/**
 * The memory and start benchmarks' floor: a bare Fastify process on plain node (as Portico's
 * built bundle runs), with one route and nothing else loaded.
 */
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
