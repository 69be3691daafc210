import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { deploymentLogs, deployments } from '../../db/schema';
import { createDeploymentsRepository } from './deployments.repository';
import { createLineSink } from './line-sink';
import { createRunLog } from './run-log';

// The engine's lines reach the database and the sockets in the order said, a burst in one
// insert, without the engine waiting; a finished run's log takes no more lines.
describe.each(testDatabaseKinds())('a run log sink on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  async function sinkForNewRun(options: { failInserts?: number } = {}) {
    const { client, user } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const [run] = await t.database.db
      .insert(deployments)
      .values({ configurationId: id, trigger: 'deploy', requestedBy: user.id, language: 'en' })
      .returning();
    const repository = createDeploymentsRepository(t.database.db);
    const inserts: number[] = [];
    let failing = options.failInserts ?? 0;
    const deploymentsSeen = {
      ...repository,
      addLogs: async (lines: Parameters<typeof repository.addLogs>[0]) => {
        inserts.push(lines.length);
        if (failing > 0) {
          failing -= 1;
          throw new Error('the database went away');
        }
        return repository.addLogs(lines);
      },
    };
    const published: string[] = [];
    const bus = {
      publish: (_id: string, message: { type: string; data: unknown }) => {
        published.push((message.data as { message: string }).message);
      },
      subscribe: () => () => {},
      close: async () => {},
    };
    const warnings: string[] = [];
    const sink = createLineSink(
      {
        runLog: createRunLog({ deployments: deploymentsSeen, bus }),
        log: { warn: (_obj, message) => warnings.push(message) },
      },
      id,
      run!.id,
    );
    const stored = async () =>
      (
        await t.database.db
          .select()
          .from(deploymentLogs)
          .where(eq(deploymentLogs.deploymentId, run!.id))
          .orderBy(deploymentLogs.id)
      ).map((row) => ({ message: row.message, text: row.text, at: row.timestamp.getTime() }));
    return { sink, inserts, published, warnings, stored };
  }

  it('stores a burst in one insert, in order, and publishes it in that order', async () => {
    const { sink, inserts, published, stored } = await sinkForNewRun();
    const before = Date.now();
    for (let i = 0; i < 12; i += 1) sink.say('info', `line ${i}`, `line ${i}`);
    await sink.flush();
    const expected = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    expect(inserts).toEqual([12]);
    expect(published).toEqual(expected);
    const rows = await stored();
    expect(rows.map((r) => r.message)).toEqual(expected);
    // Verbatim output is stored as words only; each line carries the time it was said.
    expect(rows.every((r) => r.text === null && r.at >= before - 1 && r.at <= Date.now())).toBe(
      true,
    );
  });

  it('keeps the order across inserts when lines arrive while one is under way', async () => {
    const { sink, inserts, stored } = await sinkForNewRun();
    const first = sink.log('info', 'first', { key: 'nginx.testing', params: {} });
    // Said after the first insert started: they wait for it and go in the next one.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    sink.say('info', 'second', 'second');
    sink.say('success', 'third', 'third');
    await first;
    await sink.flush();
    expect(inserts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(inserts.length).toBeGreaterThan(1);
    const rows = await stored();
    expect(rows.map((r) => r.message)).toEqual(['first', 'second', 'third']);
    expect(rows[0]!.text).toEqual({ key: 'nginx.testing', params: {} });
  });

  it('a batch the database refuses is reported and the run goes on; later lines are stored', async () => {
    const { sink, warnings, stored } = await sinkForNewRun({ failInserts: 1 });
    await sink.log('info', 'lost', 'lost');
    await sink.log('info', 'kept', 'kept');
    expect(warnings).toEqual(['deployment log lines lost']);
    expect((await stored()).map((r) => r.message)).toEqual(['kept']);
  });

  it('takes no lines once closed (a run given up on says nothing more)', async () => {
    const { sink, inserts, stored } = await sinkForNewRun();
    sink.say('info', 'before', 'before');
    await sink.flush();
    sink.close();
    sink.say('info', 'after', 'after');
    await sink.log('info', 'after too', 'after too');
    await sink.flush();
    expect(inserts).toEqual([1]);
    expect((await stored()).map((r) => r.message)).toEqual(['before']);
  });
});
