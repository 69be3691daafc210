import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  SSH_PASSWORD,
  signedInClient,
  waitForStatus,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, deployments, proxyConfigurations } from '../../db/schema';

/** A TCP port that accepts and never speaks SSH: a run waits there until the test lets go. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections: () => sockets.size,
    dropAll: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function waitFor(check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(testDatabaseKinds())('deployments API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('queues a run (202), ends failed when the server refuses, with logs oldest first', async () => {
    const { client } = await signedInClient(t);
    // Port 1 on loopback refuses at once: the engine fails at its connect step.
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const response = await client.write('POST', `/api/deploy/${id}`);
    expect(response.statusCode).toBe(202);
    const { success, deploymentId } = response.json();
    expect(success).toBe(true);
    const final = await waitForStatus(client, id, (s) => s !== 'deploying');
    expect(final.status).toBe('failed');

    const logs = await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` });
    expect(logs.statusCode).toBe(200);
    const lines = logs.json() as {
      id: number;
      deploymentId: string;
      level: string;
      message: string;
    }[];
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.id)).toEqual([...lines.map((l) => l.id)].sort((a, b) => a - b));
    for (const line of lines) expect(line.deploymentId).toBe(deploymentId);
    expect(lines.at(-1)!.level).toBe('error');
    expect(logs.body).not.toContain(SSH_PASSWORD);

    const run = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.id, deploymentId));
    expect(run[0]).toMatchObject({
      status: 'failed',
      trigger: 'deploy',
      errorCode: expect.any(String),
    });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((a) => a.action)).toContain('proxy.deploy');
  });

  it('answers 409 to a second run, a reset and a delete while one runs', async () => {
    const silent = await silentServer();
    try {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: silent.port });
      expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
      await waitFor(() => silent.connections() > 0);
      const again = await client.write('POST', `/api/proxy-configurations/${id}/redeploy`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'deployment_running',
        message: expect.stringContaining('already running'),
      });
      expect(
        (await client.write('PATCH', `/api/proxy-configurations/${id}/reset`)).statusCode,
      ).toBe(409);
      expect(
        (await client.write('DELETE', `/api/proxy-configurations/${id}?removeFromServer=false`))
          .statusCode,
      ).toBe(409);
      silent.dropAll();
      const final = await waitForStatus(client, id, (s) => s !== 'deploying');
      expect(final.status).toBe('failed');
      // Finished: a redeploy is accepted again.
      const redeploy = await client.write('POST', `/api/proxy-configurations/${id}/redeploy`);
      expect(redeploy.statusCode).toBe(202);
      await waitFor(() => silent.connections() > 0);
      silent.dropAll();
      await waitForStatus(client, id, (s) => s !== 'deploying');
    } finally {
      silent.dropAll();
      await silent.close();
    }
  });

  it('answers 400 with a clear message when the target or the password is missing', async () => {
    const { client } = await signedInClient(t);
    const noTarget = await createProxy(client, { targetServer: undefined });
    const a = await client.write('POST', `/api/deploy/${noTarget.id}`);
    expect(a.statusCode).toBe(400);
    expect(a.json()).toMatchObject({
      code: 'deploy_needs_target',
      message: 'Choose a destination server before deploying.',
    });
    const noPassword = await createProxy(client);
    await t.database.db
      .update(proxyConfigurations)
      // Its own password gone, and on no saved server (the one its typed fields saved has one).
      .set({ sshPasswordEnc: null, sshServerId: null })
      .where(eq(proxyConfigurations.id, noPassword.id));
    const b = await client.write('POST', `/api/deploy/${noPassword.id}`);
    expect(b.statusCode).toBe(400);
    expect(b.json().code).toBe('deploy_needs_password');
  });

  it('keeps deploy, redeploy and logs to the owner or an admin', async () => {
    const owner = await signedInClient(t);
    const other = await signedInClient(t);
    const admin = await signedInClient(t, 'admin');
    const { id } = await createProxy(owner.client, { serverIp: '127.0.0.1', sshPort: 1 });
    for (const call of [
      () => other.client.write('POST', `/api/deploy/${id}`),
      () => other.client.write('POST', `/api/proxy-configurations/${id}/redeploy`),
      () => other.client.request({ method: 'GET', url: `/api/deployment-logs/${id}` }),
    ]) {
      expect((await call()).statusCode).toBe(404);
    }
    const anonymous = new TestClient(t.app);
    expect((await anonymous.write('POST', `/api/deploy/${id}`)).statusCode).toBe(401);
    expect(
      (await anonymous.request({ method: 'GET', url: `/api/deployment-logs/${id}` })).statusCode,
    ).toBe(401);
    const byAdmin = await admin.client.write('POST', `/api/proxy-configurations/${id}/redeploy`);
    expect(byAdmin.statusCode).toBe(202);
    await waitForStatus(owner.client, id, (s) => s !== 'deploying');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.find((a) => a.action === 'proxy.redeploy')?.actorUsername).toBe(
      admin.user.username,
    );
    expect(
      (await admin.client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })).statusCode,
    ).toBe(200);
  });

  it('ends failed with a clear line when the stored password cannot be decrypted', async () => {
    const { client } = await signedInClient(t);
    const a = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const b = await createProxy(client);
    const [rowB] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, b.id));
    // b's ciphertext is bound to b's id: in a's row it does not decrypt.
    await t.database.db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: rowB!.sshPasswordEnc })
      .where(eq(proxyConfigurations.id, a.id));
    expect((await client.write('POST', `/api/deploy/${a.id}`)).statusCode).toBe(202);
    expect((await waitForStatus(client, a.id, (s) => s !== 'deploying')).status).toBe('failed');
    const lines = (
      await client.request({ method: 'GET', url: `/api/deployment-logs/${a.id}` })
    ).json();
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/^Stored secrets cannot be read/),
    });
  });

  it('validates ids', async () => {
    const { client } = await signedInClient(t);
    const response = await client.write('POST', '/api/deploy/not-a-uuid');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_failed');
  });
});
