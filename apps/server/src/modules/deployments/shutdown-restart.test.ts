import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { buildTestApp, TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/test-database';
import { deploymentLogs, deployments, proxyConfigurations } from '../../db/schema';

// A graceful stop in the middle of a run does not record it failed: the next start finds it
// without a worker and starts it again, saying so in the log.
describe.each(testDatabaseKinds())('a run cut by a graceful stop on %s', (kind) => {
  it('is started again by the next instance on the same database', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as { port: number }).port;
    const testDb = await createTestDatabase(kind);
    const keyDir = testTempDir('portico-restart-');
    const secretKeyFile = join(keyDir, 'secret.key');
    try {
      const first = await buildTestApp({
        ...TEST_APP_OPTIONS,
        database: testDb.database,
        config: { ...TEST_APP_OPTIONS.config, secretKeyFile },
      });
      await first.ready();
      const t = { app: first, database: testDb.database, close: async () => {} };
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: port });
      const run = (await client.write('POST', `/api/deploy/${id}`)).json().deploymentId;
      const deadline = Date.now() + 20_000;
      while (sockets.size === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      await first.close();

      const [stopped] = await testDb.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, run));
      expect(stopped!.status).toBe('running');
      const [config] = await testDb.database.db
        .select()
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id));
      expect(config!.status).toBe('deploying');

      const second = await buildTestApp({
        ...TEST_APP_OPTIONS,
        database: testDb.database,
        config: { ...TEST_APP_OPTIONS.config, secretKeyFile },
      });
      await second.ready();
      try {
        const until = Date.now() + 40_000;
        while (sockets.size === 0 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 50));
        for (const s of sockets) s.destroy();
        let status = 'deploying';
        while (status === 'deploying' && Date.now() < until + 20_000) {
          await new Promise((r) => setTimeout(r, 100));
          const [row] = await testDb.database.db
            .select()
            .from(proxyConfigurations)
            .where(eq(proxyConfigurations.id, id));
          status = row!.status;
        }
        expect(status).toBe('failed');
        const lines = await testDb.database.db
          .select()
          .from(deploymentLogs)
          .where(eq(deploymentLogs.deploymentId, run))
          .orderBy(deploymentLogs.id);
        const messages = lines.map((l) => l.message);
        expect(messages).toContain(
          'Portico is shutting down; this deployment starts again when it is back.',
        );
        expect(
          messages.some((m) =>
            m.startsWith(
              'The previous attempt was interrupted (the Portico process working it stopped); starting it again',
            ),
          ),
        ).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
      await testDb.drop();
      removeTestTempDir(keyDir);
    }
  }, 90_000);
});
