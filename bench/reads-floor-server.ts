import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The read benchmarks' floor: a bare Fastify process (node + tsx, as Portico runs in the
 * benchmark) answering each path with the exact bytes Portico answered, held in memory. No
 * session, database, validation, serialization or headers plugin: whatever Portico adds on top
 * is what it costs.
 */
const bodies = JSON.parse(readFileSync(process.env.FLOOR_DATA ?? '', 'utf8')) as Record<
  string,
  string
>;
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
}
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
