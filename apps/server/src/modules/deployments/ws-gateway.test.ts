import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  SSH_PASSWORD,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import {
  buildTestApp,
  createTestApp,
  TEST_APP_OPTIONS,
  type TTestApp,
} from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/test-database';
import {
  cookieHeader,
  progressLines,
  statuses,
  watch,
} from '../../../test/support/ws-test-helpers';
import { openDatabase } from '../../db/client';

async function finished(client: TestClient, id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
    ).json();
    if (body.status !== 'deploying') return body.status as string;
    if (Date.now() > deadline) throw new Error('still deploying');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Accepts TCP and stays silent until released: a run that waits while sockets watch it. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    connected: () => sockets.size > 0,
    release: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

describe.each(testDatabaseKinds())('/ws log socket on %s', (kind) => {
  let t: TTestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('refuses the upgrade without a session (401) and from a foreign origin (403)', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    expect(await watch(base, id).ended).toEqual({ code: 0, httpStatus: 401 });
    const foreign = watch(base, id, {
      cookie: cookieHeader(client.cookies),
      origin: 'https://evil.example',
    });
    expect(await foreign.ended).toEqual({ code: 0, httpStatus: 403 });
  });

  it('closes with a policy code and no data for another user or a bad id', async () => {
    const owner = await signedInClient(t);
    const other = await signedInClient(t);
    const { id } = await createProxy(owner.client);
    const socket = watch(base, id, { cookie: cookieHeader(other.client.cookies) });
    expect((await socket.ended).code).toBe(1008);
    expect(socket.messages).toEqual([]);
    const bad = watch(base, 'nope', { cookie: cookieHeader(owner.client.cookies) });
    expect((await bad.ended).code).toBe(1008);
  });

  it('replays the latest run on connect, then streams a new run live; an admin may watch', async () => {
    const { client } = await signedInClient(t);
    const admin = await signedInClient(t, 'admin');
    const { id, input } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const first = (await client.write('POST', `/api/deploy/${id}`)).json().deploymentId;
    expect(await finished(client, id)).toBe('failed');

    const replay = watch(base, id, { cookie: cookieHeader(client.cookies), origin: base });
    await replay.waitFor((m) => statuses(m).length > 0);
    const replayed = progressLines(replay.messages);
    const stored = (
      await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
    ).json();
    expect(replayed.map((l) => l.id)).toEqual(stored.map((l: { id: number }) => l.id));
    expect(replayed.every((l) => l.deploymentId === first)).toBe(true);
    expect(replay.messages.at(-1)).toEqual({
      type: 'deployment_status',
      data: { status: 'failed', deploymentId: first },
    });
    replay.close();

    const silent = await silentServer();
    try {
      // Pointed at the silent server through the wizard's save, with the password: an edit of
      // the port alone would clear the saved password (it belongs to port 1).
      const moved = await client.write('POST', '/api/proxy-configurations', {
        ...input,
        configurationId: id,
        sshPort: silent.port,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const live = watch(base, id, { cookie: cookieHeader(client.cookies) });
      const byAdmin = watch(base, id, { cookie: cookieHeader(admin.client.cookies) });
      await live.waitFor((m) => statuses(m).length > 0);
      await byAdmin.waitFor((m) => statuses(m).length > 0);
      const second = (await client.write('POST', `/api/proxy-configurations/${id}/redeploy`)).json()
        .deploymentId;
      await live.waitFor((m) =>
        m.some((x) => x.type === 'deployment_status' && x.data.status === 'deploying'),
      );
      const deadline = Date.now() + 10_000;
      while (!silent.connected() && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      silent.release();
      for (const socket of [live, byAdmin]) {
        await socket.waitFor(
          (m) => m.at(-1)?.type === 'deployment_status' && statuses(m).at(-1) === 'failed',
        );
        const lines = progressLines(socket.messages).filter((l) => l.deploymentId === second);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.at(-1)!.level).toBe('error');
        expect(JSON.stringify(socket.messages)).not.toContain(SSH_PASSWORD);
        socket.close();
      }
    } finally {
      silent.release();
      await silent.close();
    }
  });

  it('closes the socket when its session signs out', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const socket = watch(base, id, { cookie: cookieHeader(client.cookies) });
    await socket.waitFor((m) => statuses(m).length > 0);
    await client.logout();
    expect((await socket.ended).code).toBe(1008);
  });
});

// Only where PostgreSQL is available (TEST_DATABASE_URL), like every PostgreSQL suite here.
const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('two instances on one %s database', () => {
  it('a socket on the second instance receives the lines of a run worked by the first', async () => {
    const testDb = await createTestDatabase('postgres');
    const second = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
    const a = await buildTestApp({ ...TEST_APP_OPTIONS, database: testDb.database });
    // No workers on the second instance: the run is worked by the first, so its lines reach this
    // socket only through NOTIFY.
    const b = await buildTestApp({ ...TEST_APP_OPTIONS, database: second, deploy: { workers: 0 } });
    try {
      const baseB = await b.listen({ port: 0, host: '127.0.0.1' });
      await a.ready();
      const { client } = await signedInClient({
        app: a,
        database: testDb.database,
        close: async () => {},
      });
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
      const socket = watch(baseB, id, { cookie: cookieHeader(client.cookies) });
      await socket.waitFor((m) => statuses(m).length > 0);
      const run = (await client.write('POST', `/api/deploy/${id}`)).json().deploymentId;
      await socket.waitFor((m) => statuses(m).at(-1) === 'failed');
      const stored = (
        await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
      ).json();
      const streamed = progressLines(socket.messages).filter((l) => l.deploymentId === run);
      expect(streamed.map((l) => l.id)).toEqual(stored.map((l: { id: number }) => l.id));
      socket.close();
    } finally {
      await a.close();
      await b.close();
      await second.close();
      await testDb.drop();
    }
  });
});
