import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deployments, proxyConfigurations } from '../../src/db/schema';
import { createTestApp, type TTestApp } from '../support/test-app';
import { testDatabaseKinds } from '../support/test-database';
import { KINDS, runMix, type TMixResult } from './load-mix';
import { seedSessions, type TSeededSession } from './load-seed';

// The benchmark's mix (bench/load.bench.ts) run for a fixed number of requests, so a broken
// load path (a route, a check, the seeding) fails here rather than only in a benchmark figure.
const SHAPE = { sessions: 24, proxiesPerSession: 2, logLinesPerProxy: 6 };
const REQUESTS_PER_SESSION = 12;

describe.each(testDatabaseKinds())('the load mix on %s', (kind) => {
  let t: TTestApp;
  let sessions: TSeededSession[];
  let result: TMixResult;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // Real HTTP, as in the benchmark: each session on its own keep-alive connection and address.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    sessions = await seedSessions(new URL(`http://127.0.0.1:${port}`), t.database.db, SHAPE, 4);
    result = await runMix(sessions, { requestsPerSession: REQUESTS_PER_SESSION, seed: 7 });
  }, 180_000);

  afterAll(async () => {
    for (const s of sessions ?? []) s.client.close();
    await t?.close();
  });

  it('answers every request of every kind as it should, with no error', () => {
    expect(result.firstErrors).toEqual([]);
    expect(result.errors).toBe(0);
    expect(result.requests).toBe(SHAPE.sessions * REQUESTS_PER_SESSION);
    expect(result.latenciesMs).toHaveLength(result.requests);
    for (const k of KINDS) {
      expect(result.byKind[k].requests, k).toBeGreaterThan(0);
      expect(result.byKind[k].errors, k).toBe(0);
    }
  });

  it('stored each edit, audited it, and started no deployment', async () => {
    const { db } = t.database;
    const ids = sessions.flatMap((s) => s.proxies.map((p) => p.id));
    const rows = await db
      .select()
      .from(proxyConfigurations)
      .where(inArray(proxyConfigurations.id, ids));
    const stored = new Map(rows.map((r) => [r.id, r.targetServer]));
    for (const p of sessions.flatMap((s) => s.proxies))
      expect(stored.get(p.id)).toBe(p.targetServer);

    const [edits] = await db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'proxy.edit'), inArray(auditLog.targetId, ids)));
    expect(edits?.n).toBe(result.byKind.edit.requests);
    // One seeded run per proxy, none more: an edit only stores.
    const runs = await db.select({ status: deployments.status }).from(deployments);
    expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
  });

  it('sends one kind only when asked (LOAD_KIND in the benchmark), each answered and stored', async () => {
    const ids = sessions.flatMap((s) => s.proxies.map((p) => p.id));
    const editsIn = async () =>
      (
        await t.database.db
          .select({ n: count() })
          .from(auditLog)
          .where(and(eq(auditLog.action, 'proxy.edit'), inArray(auditLog.targetId, ids)))
      )[0]!.n;
    const before = await editsIn();
    const edits = await runMix(sessions, { requestsPerSession: 2, seed: 11, only: 'edit' });
    expect(edits.firstErrors).toEqual([]);
    expect(edits.byKind.edit.requests).toBe(SHAPE.sessions * 2);
    for (const k of KINDS.filter((k) => k !== 'edit')) expect(edits.byKind[k].requests, k).toBe(0);
    expect((await editsIn()) - before).toBe(SHAPE.sessions * 2);
  });
});
