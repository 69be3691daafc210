// "Redeploy all" and "check all certificates" as background runs, on PGlite and PostgreSQL: the
// start answers 202 with the run at once, a second start while one is unfinished answers 409
// naming it, the run and the server's latest read back (a page of results at a time), other
// users get 404 and admins may; a run whose deployment never ends stops at its deadline as
// timed-out and frees the server; a run cut by a stop is recorded interrupted by the next start,
// and one never taken past its deadline timed-out.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  signedInClient as signedInFrom,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/test-database';
import { buildApp } from '../../app';
import { serverRunResults, serverRuns } from '../../db/schema';
import type { TEngine } from '../deployments/deploy-job-deps';

let addresses = 0;
const signedInClient = (t: TTestApp, role: 'user' | 'admin' = 'user') =>
  signedInFrom(t, role, `198.19.${Math.floor(++addresses / 250)}.${addresses % 250}`);

/** A remote party that never answers: the deployment it runs never ends on its own. */
const silentEngine: TEngine = {
  runDeployment: () => new Promise(() => {}),
  removeSite: () => new Promise(() => {}),
  runCertificateAction: () => new Promise(() => {}),
};
const timing = { runDeadlineMs: 120_000, abandonGraceMs: 200 };

/** A saved server (made by typing it for a first proxy) with `count` proxies on it. */
async function serverWithProxies(client: TestClient, count: number, host = '203.0.113.10') {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await createProxy(client, { serverIp: host })).id);
  const proxy = await client.request({ method: 'GET', url: `/api/proxy-configurations/${ids[0]}` });
  return { serverId: proxy.json().sshServerId as string, ids };
}

async function runUntil(client: TestClient, url: string, done: (state: string) => boolean) {
  const until = Date.now() + 30_000;
  for (;;) {
    const run = (await client.request({ method: 'GET', url })).json();
    if (done(run.state) || Date.now() > until) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(testDatabaseKinds())('per-server runs on %s', (kind) => {
  describe('starting and reading (no worker: a run stays queued)', () => {
    let t: TTestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { deploy: { workers: 0 } });
    });
    afterAll(async () => t?.close());

    it('answers 202 with the run, 409 naming it while unfinished, and reads it back', async () => {
      const { client } = await signedInClient(t);
      const { serverId, ids } = await serverWithProxies(client, 2);
      const base = `/api/ssh-servers/${serverId}`;
      const before = await client.request({ method: 'GET', url: `${base}/runs/latest` });
      expect(before.json()).toEqual({ run: null });

      const started = await client.write('POST', `${base}/redeploy-all`);
      expect(started.statusCode, started.body).toBe(202);
      const run = started.json();
      expect(run).toMatchObject({
        sshServerId: serverId,
        kind: 'redeploy',
        state: 'queued',
        done: 0,
        failed: 0,
        refused: 0,
        total: 2,
        results: [],
        nextAfter: null,
      });

      for (const action of ['redeploy-all', 'check-certificates']) {
        const again = await client.write('POST', `${base}/${action}`);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toMatchObject({
          code: 'server_run_active',
          text: { key: 'errors.serverRunActive.redeploy', params: { runId: run.id } },
        });
      }
      expect(
        await t.database.db.select().from(serverRuns).where(eq(serverRuns.sshServerId, serverId)),
      ).toHaveLength(1);

      // Deleting the server with its sites waits for the run too; nothing is deleted.
      const removal = await client.write('POST', `${base}/delete-with-sites`, {});
      expect(removal.statusCode).toBe(409);
      expect(removal.json().text.key).toBe('errors.serverRunActive.redeploy');
      const kept = await client.request({
        method: 'GET',
        url: `/api/proxy-configurations/${ids[0]}`,
      });
      expect(kept.statusCode).toBe(200);

      const read = await client.request({ method: 'GET', url: `${base}/runs/${run.id}` });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(run);
      const latest = await client.request({ method: 'GET', url: `${base}/runs/latest` });
      expect(latest.json()).toEqual({ run });
    });

    it('other users get 404 on every run route; an admin reads and starts', async () => {
      const { client } = await signedInClient(t);
      const { serverId } = await serverWithProxies(client, 1, '203.0.113.11');
      const base = `/api/ssh-servers/${serverId}`;
      const run = (await client.write('POST', `${base}/check-certificates`)).json();
      const { client: other } = await signedInClient(t);
      for (const url of [`${base}/runs/${run.id}`, `${base}/runs/latest`]) {
        expect((await other.request({ method: 'GET', url })).statusCode).toBe(404);
      }
      for (const action of ['redeploy-all', 'check-certificates']) {
        expect((await other.write('POST', `${base}/${action}`)).statusCode).toBe(404);
      }
      // A run of another server is not found through this one.
      const { serverId: otherServer } = await serverWithProxies(other, 1, '203.0.113.12');
      const wrong = await other.request({
        method: 'GET',
        url: `/api/ssh-servers/${otherServer}/runs/${run.id}`,
      });
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json().text).toEqual({ key: 'errors.serverRunNotFound' });

      const { client: admin } = await signedInClient(t, 'admin');
      const seen = await admin.request({ method: 'GET', url: `${base}/runs/${run.id}` });
      expect(seen.statusCode).toBe(200);
      expect(seen.json().kind).toBe('check-certificates');
      expect((await admin.write('POST', `${base}/redeploy-all`)).statusCode).toBe(409);
    });

    it('reads the results a page at a time and refuses a cursor that is not a number', async () => {
      const { client } = await signedInClient(t);
      const { serverId, ids } = await serverWithProxies(client, 1, '203.0.113.13');
      const run = (await client.write('POST', `/api/ssh-servers/${serverId}/redeploy-all`)).json();
      // 150 results as a worker records them: the first page holds 100, then the rest.
      await t.database.db.insert(serverRunResults).values(
        Array.from({ length: 150 }, (_, position) => ({
          runId: run.id,
          position,
          proxyId: ids[0]!,
          domain: `p${position}.example.com`,
          outcome: 'done' as const,
        })),
      );
      const url = `/api/ssh-servers/${serverId}/runs/${run.id}`;
      const first = (await client.request({ method: 'GET', url })).json();
      expect(first.results).toHaveLength(100);
      expect(first.nextAfter).toBe(99);
      const second = (await client.request({ method: 'GET', url: `${url}?after=99` })).json();
      expect(second.results.map((r: { position: number }) => r.position)).toEqual(
        Array.from({ length: 50 }, (_, i) => 100 + i),
      );
      expect(second.nextAfter).toBeNull();
      const bad = await client.request({ method: 'GET', url: `${url}?after=x` });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('worked runs', () => {
    let t: TTestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, {
        deploy: { workers: 1, engine: silentEngine, timing, serverRunDeadlineMs: 2_000 },
      });
    });
    afterAll(async () => t?.close());

    it('goes through every proxy and records each refusal (no certificate yet)', async () => {
      const { client } = await signedInClient(t);
      const { serverId, ids } = await serverWithProxies(client, 2, '203.0.113.20');
      const base = `/api/ssh-servers/${serverId}`;
      const run = (await client.write('POST', `${base}/check-certificates`)).json();
      const ended = await runUntil(client, `${base}/runs/${run.id}`, (s) => s === 'done');
      expect(ended).toMatchObject({ state: 'done', done: 0, failed: 0, refused: 2, total: 2 });
      expect(ended.finishedAt).toBeTruthy();
      expect(ended.results.map((r: { id: string; outcome: string }) => [r.id, r.outcome])).toEqual(
        [...ids].sort().map((id) => [id, 'refused']),
      );
      expect(ended.results[0].text.key).toBe('errors.certificateNotDeployed');
    });

    it('a deployment that never ends: the run stops at its deadline as timed-out, and the server is free', async () => {
      const { client } = await signedInClient(t);
      const { serverId } = await serverWithProxies(client, 1, '203.0.113.21');
      const base = `/api/ssh-servers/${serverId}`;
      const run = (await client.write('POST', `${base}/redeploy-all`)).json();
      const ended = await runUntil(
        client,
        `${base}/runs/${run.id}`,
        (s) => s !== 'queued' && s !== 'running',
      );
      expect(ended).toMatchObject({
        state: 'timed-out',
        done: 0,
        total: 1,
        text: { key: 'sshServer.run.timedOut' },
      });
      expect(Date.parse(ended.finishedAt)).toBeGreaterThanOrEqual(Date.parse(ended.deadlineAt));
      const next = await client.write('POST', `${base}/check-certificates`);
      expect(next.statusCode, next.body).toBe(202);
    });
  });

  it('a run cut by a stop is recorded interrupted by the next start', {
    timeout: 90_000,
  }, async () => {
    const testDb = await createTestDatabase(kind);
    const options = { ...TEST_APP_OPTIONS, database: testDb.database };
    const first = await buildApp({
      ...options,
      deploy: { workers: 1, engine: silentEngine, timing },
    });
    let second: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      await first.ready();
      const t = { app: first, database: testDb.database, close: async () => {} };
      const { client } = await signedInFrom(t);
      const { serverId } = await serverWithProxies(client, 1, '203.0.113.30');
      const run = (await client.write('POST', `/api/ssh-servers/${serverId}/redeploy-all`)).json();
      await runUntil(client, `/api/ssh-servers/${serverId}/runs/${run.id}`, (s) => s === 'running');
      const { serverId: idle } = await serverWithProxies(client, 1, '203.0.113.31');
      await first.close();
      const [left] = await testDb.database.db
        .select()
        .from(serverRuns)
        .where(eq(serverRuns.id, run.id));
      // When not (seen once in CI, under load), say what the run recorded for its proxy.
      const seen = await testDb.database.db
        .select()
        .from(serverRunResults)
        .where(eq(serverRunResults.runId, run.id));
      expect(left!.state, JSON.stringify({ left, seen })).toBe('running');

      // Another server's run that no worker ever took, past its deadline: over, as timed-out.
      const stale = '0f6a3c52-0c1b-4d8e-b0c4-3f1e2d9a7b10';
      await testDb.database.db.insert(serverRuns).values({
        id: stale,
        sshServerId: idle,
        kind: 'redeploy',
        language: 'en',
        total: 1,
        deadlineAt: new Date(Date.now() - 60_000),
      });

      second = await buildApp({ ...options, deploy: { workers: 0 } });
      await second.ready();
      // At start-up; on PostgreSQL the stopped instance's hold on the run (an advisory lock)
      // may outlive its connection's close by a moment, so the sweep every 30 s may be the one.
      const until = Date.now() + 45_000;
      let swept = left;
      while (swept?.state === 'running' && Date.now() < until) {
        [swept] = await testDb.database.db
          .select()
          .from(serverRuns)
          .where(eq(serverRuns.id, run.id));
        if (swept?.state === 'running') await new Promise((r) => setTimeout(r, 250));
      }
      expect(swept).toMatchObject({ state: 'failed', text: { key: 'sshServer.run.interrupted' } });
      expect(swept!.finishedAt).toBeTruthy();
      const [late] = await testDb.database.db
        .select()
        .from(serverRuns)
        .where(eq(serverRuns.id, stale));
      expect(late).toMatchObject({ state: 'timed-out', text: { key: 'sshServer.run.timedOut' } });
    } finally {
      await second?.close();
      await first.close();
      await testDb.drop();
    }
  });
});
