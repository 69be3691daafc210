// Two Portico instances on one PostgreSQL, a real deployment on a lab server: the instance that
// does not work the run streams the same lines to its socket (LISTEN/NOTIFY). Needs
// TEST_DATABASE_URL; like every PostgreSQL suite here it has no cases without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/test-database';
import {
  cookieHeader,
  progressLines,
  statuses,
  watch,
} from '../../../test/support/ws-test-helpers';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('two instances on one %s database', () => {
  let lab: TLab;
  let s1: TLabServer;
  beforeAll(async () => {
    lab = await startLab({ servers: 1 });
    [s1] = lab.status.servers as [TLabServer];
  });
  afterAll(async () => lab?.stop());

  it('a socket on the second instance receives every line of a run worked by the first', async () => {
    const testDb = await createTestDatabase('postgres');
    const secondDb = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
    const settings = {
      acmeDirectoryUrl: lab.status.acmeDirectoryUrl,
      extraCaFile: lab.status.caRootPath,
      dnsServers: [lab.status.dnsServer],
    };
    const a = await buildApp({
      ...TEST_APP_OPTIONS,
      database: testDb.database,
      deploy: { settings },
    });
    // No workers: every line this instance streams came from the first one through NOTIFY.
    const b = await buildApp({
      ...TEST_APP_OPTIONS,
      database: secondDb,
      deploy: { settings, workers: 0 },
    });
    try {
      await a.ready();
      const baseB = await b.listen({ port: 0, host: '127.0.0.1' });
      const { client } = await signedInClient({
        app: a,
        database: testDb.database,
        close: async () => {},
      });
      const root = s1.users.find((u) => u.name === 'root')!;
      const saved = await client.write('POST', '/api/proxy-configurations', {
        serverIp: s1.address,
        domain: s1.domains[0]!,
        sshUser: 'root',
        sshPassword: root.password,
        email: 'ops@example.com',
        targetServer: `http://${lab.status.upstream.address}:${lab.status.upstream.port}`,
      });
      const id = saved.json().id as string;
      const socket = watch(baseB, id, {
        cookie: cookieHeader(client.cookies),
        'accept-language': 'en',
      });
      await socket.waitFor((m) => statuses(m).length > 0);
      const run = (await client.write('POST', `/api/deploy/${id}`)).json().deploymentId;
      await socket.waitFor(
        (m) => ['completed', 'failed'].includes(statuses(m).at(-1) ?? ''),
        120_000,
      );
      expect(statuses(socket.messages).at(-1)).toBe('completed');
      const stored = (
        await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })
      ).json();
      const streamed = progressLines(socket.messages).filter((l) => l.deploymentId === run);
      expect(streamed.map((l) => l.id)).toEqual(stored.map((l: { id: number }) => l.id));
      expect(streamed.at(-1)!.message).toMatch(/^Deployment complete/);
      socket.close();
    } finally {
      await a.close();
      await b.close();
      await secondDb.close();
      await testDb.drop();
    }
  });
});
