import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { TFloorData } from './lib/load-floor';

/**
 * The load benchmark's floor: a bare Fastify process (node + tsx, as Portico runs in the
 * benchmark) answering the mix's four routes with Portico's own answers held in memory. No
 * session, CSRF, validation, database or audit: whatever Portico adds is what it costs.
 */
const data = JSON.parse(readFileSync(process.env.FLOOR_DATA ?? '', 'utf8')) as TFloorData;
type TProxy = Record<string, unknown>;
const proxies = new Map<string, TProxy>();
for (const list of Object.values(data.lists)) {
  for (const p of list) proxies.set(String(p.id), p);
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
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
