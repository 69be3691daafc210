import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { TFloorData } from './lib/load-floor';

/**
 * The load benchmark's floor: a bare Fastify process (node + tsx, as Portico runs in the
 * benchmark) answering the mix's four routes with Portico's own answers held in memory. No
 * session, CSRF, validation, database or audit: whatever Portico adds is what it costs.
 *
 * With FLOOR_DATABASE_URL it first asks PostgreSQL one prepared `select 1` per request, through
 * the driver and pool size Portico uses: the least any server pays that checks a session in the
 * database on every request (revocable at once), so the floor of that design.
 */
const data = JSON.parse(readFileSync(process.env.FLOOR_DATA ?? '', 'utf8')) as TFloorData;
type TProxy = Record<string, unknown>;
const proxies = new Map<string, TProxy>();
for (const list of Object.values(data.lists)) {
  for (const p of list) proxies.set(String(p.id), p);
}

const databaseUrl = process.env.FLOOR_DATABASE_URL;
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : null;
const ONE = { name: 'floor_one', text: 'select 1 as one' };

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
if (pool) {
  app.addHook('onRequest', async (request) => {
    if (request.url !== '/healthz') await pool.query(ONE);
  });
}
app.get(
  '/api/user/proxy-configurations',
  async (request) => data.lists[request.headers.cookie ?? ''] ?? [],
);
app.get<{ Params: { id: string } }>('/api/proxy-configurations/:id', async (request, reply) => {
  return proxies.get(request.params.id) ?? reply.code(404).send({ error: 'not_found' });
});
app.get<{ Params: { id: string } }>(
  '/api/deployment-logs/:id',
  async (request) => data.logs[request.params.id] ?? [],
);
app.put<{ Params: { id: string }; Body: TProxy }>(
  '/api/user/proxy-configurations/:id',
  async (request, reply) => {
    const proxy = proxies.get(request.params.id);
    if (!proxy) return reply.code(404).send({ error: 'not_found' });
    // The same object sits in its owner's list, so the list shows the edit too.
    Object.assign(proxy, request.body, { updatedAt: new Date().toISOString() });
    return proxy;
  },
);
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
