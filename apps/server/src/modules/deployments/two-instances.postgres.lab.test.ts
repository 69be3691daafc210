// Two Portico instances on one PostgreSQL, real deployments on a lab server: the instance that
// does not work a run streams the same lines to its socket (LISTEN/NOTIFY), and two runs to one
// server started on both at once take turns, and a run whose instance is SIGKILLed is ended by
// another (real processes), and a run whose hold on the server is lost stops and says so. Needs
// TEST_DATABASE_URL; like every PostgreSQL suite
// here it has no cases without it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdScript } from '../../../../../testbed/src/hold-script';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  deploymentUnderWay,
  HttpClient,
  labEnv,
  rootProxy,
  startPortico,
  statusWithin2Minutes,
  stopPortico,
  type TPorticoProcess,
} from '../../../test/support/lab-app-helpers';
import { httpsGet } from '../../../test/support/lab-helpers';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { testSecretKeyFile } from '../../../test/support/ssh-test-fixtures';
import { buildTestApp, TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { createTestDatabase, testDatabaseKinds } from '../../../test/support/test-database';
import {
  cookieHeader,
  progressLines,
  statuses,
  watch,
} from '../../../test/support/ws-test-helpers';
import { openDatabase } from '../../db/client';
import { deployments } from '../../db/schema';

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('two instances on one %s database', () => {
  let lab: TLab;
  let s1: TLabServer;
  let s2: TLabServer;
  beforeAll(async () => {
    lab = await startLab({ servers: 2 });
    [s1, s2] = lab.status.servers as [TLabServer, TLabServer];
  });
  afterAll(async () => lab?.stop());

  /** Two in-process instances on a fresh database, each with its own pool, as two processes. */
  async function twoInstances(workers: { a?: number; b: number }) {
    const testDb = await createTestDatabase('postgres');
    const secondDb = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
    const settings = {
      acmeDirectoryUrl: lab.status.acmeDirectoryUrl,
      extraCaFile: lab.status.caRootPath,
      dnsServers: [lab.status.dnsServer],
    };
    // One key file, as docs/OPERATIONS.md asks: a run saved on one instance may be worked by the
    // other, which must read its stored SSH password.
    const config = { ...TEST_APP_OPTIONS.config, secretKeyFile: testSecretKeyFile() };
    const a = await buildTestApp({
      ...TEST_APP_OPTIONS,
      config,
      database: testDb.database,
      deploy: { settings, ...(workers.a === undefined ? {} : { workers: workers.a }) },
    });
    const b = await buildTestApp({
      ...TEST_APP_OPTIONS,
      config,
      database: secondDb,
      deploy: { settings, workers: workers.b },
    });
    return {
      testDb,
      secondDb,
      a,
      b,
      async close() {
        await a.close();
        await b.close();
        await secondDb.close();
        await testDb.drop();
      },
    };
  }

  it('a socket on the second instance receives every line of a run worked by the first', async () => {
    // No workers on the second: every line it streams came from the first through NOTIFY.
    const { testDb, a, b, close } = await twoInstances({ b: 0 });
    try {
      await a.ready();
      const baseB = await b.listen({ port: 0, host: '127.0.0.1' });
      const { client } = await signedInClient({
        app: a,
        database: testDb.database,
        close: async () => {},
      });
      const saved = await client.write(
        'POST',
        '/api/proxy-configurations',
        rootProxy(lab.status, s1, s1.domains[0]!),
      );
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
      await close();
    }
  });
  it('two runs to one server, started on both instances at once, take turns and both complete', async () => {
    // One worker each: the second run can only start while the first holds the server if the
    // other instance works it, so its waiting line proves the lock was held across instances.
    const { testDb, secondDb, a, b, close } = await twoInstances({ a: 1, b: 1 });
    try {
      await Promise.all([a.ready(), b.ready()]);
      const clients = await Promise.all(
        [a, b].map(async (app, i) => {
          const database = i === 0 ? testDb.database : secondDb;
          const { client } = await signedInClient({ app, database, close: async () => {} });
          const saved = await client.write(
            'POST',
            '/api/proxy-configurations',
            rootProxy(lab.status, s1, s1.domains[i + 1]!),
          );
          return { client, id: saved.json().id as string };
        }),
      );
      const runs = await Promise.all(
        clients.map(async ({ client, id }) => {
          const started = await client.write('POST', `/api/deploy/${id}`);
          expect(started.statusCode).toBe(202);
          return started.json().deploymentId as string;
        }),
      );
      const { db } = testDb.database;
      const ended = async () => {
        const rows = await Promise.all(
          runs.map(
            async (run) => (await db.select().from(deployments).where(eq(deployments.id, run)))[0]!,
          ),
        );
        return rows.every((row) => row.finishedAt !== null) ? rows : undefined;
      };
      await expect.poll(ended, { timeout: 240_000, interval: 1_000 }).toBeDefined();
      const logs = await Promise.all(
        clients.map(
          async ({ client, id }) =>
            (await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })).json() as {
              id: number;
              message: string;
            }[],
        ),
      );
      expect(
        (await ended())!.map((row) => row.status),
        logs.map((lines) => lines.map((line) => line.message).join('\n')).join('\n---\n'),
      ).toEqual(['completed', 'completed']);
      const waiting = /^Another deployment to \S+ is running; waiting for it to finish\.$/;
      const waiters = logs.filter((lines) => lines.some((line) => waiting.test(line.message)));
      expect(waiters).toHaveLength(1);
      // One after the other (line ids are one sequence over both instances): everything the
      // waiting run did after its waiting line comes after the other run's last line.
      const waiter = waiters[0]!;
      const holder = logs.find((lines) => lines !== waiter)!;
      const after = waiter.slice(waiter.findIndex((line) => waiting.test(line.message)) + 1);
      expect(after.length).toBeGreaterThan(5);
      expect(after[0]!.id).toBeGreaterThan(holder.at(-1)!.id);
      for (const lines of logs) expect(lines.at(-1)!.message).toMatch(/^Deployment complete/);
    } finally {
      await close();
    }
  });
  it('a run whose server lock connection drops stops, says so as its last line, and the next run completes', async () => {
    const { testDb, a, close } = await twoInstances({ b: 0 });
    try {
      await a.ready();
      const { client } = await signedInClient({
        app: a,
        database: testDb.database,
        close: async () => {},
      });
      const saved = await client.write(
        'POST',
        '/api/proxy-configurations',
        rootProxy(lab.status, s2, s2.domains[1]!),
      );
      const id = saved.json().id as string;
      const logsOf = async () =>
        (await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` })).json() as {
          message: string;
        }[];
      const { db } = testDb.database;
      const runOf = async (run: string) =>
        (await db.select().from(deployments).where(eq(deployments.id, run)))[0]!;

      const first = (await client.write('POST', `/api/deploy/${id}`)).json().deploymentId as string;
      // Logged in and under way: the lock is held by then (it is taken before the login).
      await expect
        .poll(async () => (await logsOf()).length, { timeout: 60_000 })
        .toBeGreaterThan(3);
      // As a database restart or an administrator would: the lock's connection ends.
      const ended = (await db.execute(sql`
        select pg_terminate_backend(pid) as ended from pg_locks
        where locktype = 'advisory' and granted
          and ((classid::bigint << 32) | objid::bigint)
            = hashtextextended(${`portico-server:${s2.address}:22`}, 0)`)) as unknown as {
        rows: { ended: boolean }[];
      };
      expect(ended.rows.map((row) => row.ended)).toEqual([true]);
      await expect
        .poll(async () => (await runOf(first)).finishedAt, { timeout: 60_000 })
        .not.toBeNull();
      const stopped = await logsOf();
      const said = stopped.map((line) => line.message).join('\n');
      expect((await runOf(first)).status, said).toBe('failed');
      expect(stopped.at(-1)!.message, said).toMatch(
        /^Stopped during [a-z-]+: this Portico instance lost its hold on the server \(its database connection dropped\), and another run could then start on the same server\. Check the server and deploy again\.$/,
      );
      const shown = (
        await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` })
      ).json();
      expect(shown.status).toBe('failed');
      expect(shown.lastFailure).toMatchObject({
        code: 'cancelled',
        message: stopped.at(-1)!.message,
      });

      // The server is free again: deploying again takes it and completes.
      const second = (await client.write('POST', `/api/deploy/${id}`)).json()
        .deploymentId as string;
      await expect
        .poll(async () => (await runOf(second)).finishedAt, { timeout: 180_000, interval: 1_000 })
        .not.toBeNull();
      const again = await logsOf();
      expect((await runOf(second)).status, again.map((l) => l.message).join('\n')).toBe(
        'completed',
      );
      const page = await httpsGet(lab.status, s2.address, s2.domains[1]!, '/');
      expect(page.status).toBe(200);
    } finally {
      await close();
    }
  });
  it('an instance SIGKILLed mid-run: another ends the run within 2 minutes and the site serves', async () => {
    const testDb = await createTestDatabase('postgres');
    // One data directory: the instances share the key file and the session secret.
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-two-kill-'));
    const env = { ...labEnv(lab.status), PORTICO_DATA_DIR: dataDir, DATABASE_URL: testDb.url! };
    let first: TPorticoProcess | undefined;
    let second: TPorticoProcess | undefined;
    // The run waits at its script step until this exists on s2: the first instance is killed
    // while it works the run, however long the second takes to start.
    const marker = '/tmp/portico-two-kill-release';
    await lab.exec(s2.name, ['rm', '-f', marker]);
    try {
      first = await startPortico(env);
      const client = new HttpClient(first.base);
      // The first instance works the run (the second is not up yet); killed a few lines in.
      const id = await deploymentUnderWay(
        client,
        'two_killer',
        rootProxy(lab.status, s2, s2.domains[0]!),
        holdScript(marker, 120),
      );
      second = await startPortico(env);
      await stopPortico(first, 'SIGKILL');
      const killedAt = Date.now();
      await lab.exec(s2.name, ['touch', marker]);

      const after = new HttpClient(second.base);
      for (const [k, v] of client.cookies) after.cookies.set(k, v);
      const status = await statusWithin2Minutes(after, id, killedAt);
      const logs = (await after.request('GET', `/api/deployment-logs/${id}`)).json as {
        message: string;
      }[];
      expect(status, logs.map((l) => l.message).join('\n')).toBe('completed');
      expect(
        logs.some((l) =>
          l.message.startsWith(
            'The previous attempt was interrupted (the Portico process working it stopped); starting it again',
          ),
        ),
      ).toBe(true);
      const { db } = testDb.database;
      const unfinished = (await db.select().from(deployments)).filter(
        (row) => row.finishedAt === null,
      );
      expect(unfinished).toEqual([]);
      const page = await httpsGet(lab.status, s2.address, s2.domains[0]!, '/');
      expect(page.status).toBe(200);
    } finally {
      await lab.exec(s2.name, ['rm', '-f', marker]);
      await stopPortico(first, 'SIGKILL');
      await stopPortico(second);
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
