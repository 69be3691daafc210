import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The read benchmarks' floor: a bare Fastify process (node + tsx, as Portico runs in the
 * benchmark) answering each path with the exact bytes Portico answered, held in memory. No
 * session, database, validation, serialization or headers plugin: whatever Portico adds on top
 * is what it costs.
 *
 * With FLOOR_DATABASE_URL it first asks PostgreSQL one prepared `select 1` per request, through
 * the driver and pool size Portico uses: the least any server pays that checks a session in the
 * database on every request (revocable at once), so the floor of that design.
 */
const bodies = JSON.parse(readFileSync(process.env.FLOOR_DATA ?? '', 'utf8')) as Record<
  string,
  string
>;
const databaseUrl = process.env.FLOOR_DATABASE_URL;
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : null;
const ONE = { name: 'floor_one', text: 'select 1 as one' };

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, async (_request, reply) => {
    if (pool) await pool.query(ONE);
    reply.type('application/json; charset=utf-8').send(body);
    return reply;
  });
}
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
