import Fastify from 'fastify';

/**
 * The floor: a bare Fastify route in the same kind of process (node + tsx) answering the same
 * JSON body, with no session, database, CSRF or headers plugin in the way.
 */
const body = JSON.parse(process.env.FLOOR_BODY ?? '{}');
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/api/auth/user', async () => body);
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
