import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedClient } from '../../test/support/admin-test-helpers';
import { createProxy, signedInClient } from '../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../test/support/test-app';
import { TEST_PASSWORD, type TestClient } from '../../test/support/test-client';
import { testDatabaseKinds } from '../../test/support/test-database';
import { openDatabase, type TDatabase } from '../db/client';
import { answerVersions, deploymentLogs, deployments, proxyConfigurations } from '../db/schema';

/** Counts the statements that read the proxies table, on every connection of the app. */
function countProxyReads(t: TTestApp): { count(): number } {
  let n = 0;
  const target = (t.database.pglite ?? t.database.pool) as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const query = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    const text = args[0];
    const sql = typeof text === 'string' ? text : String((text as { text?: string })?.text ?? '');
    if (/^\s*select\b[\s\S]*"proxy_configurations"/i.test(sql)) n += 1;
    return query(...args);
  };
  return { count: () => n };
}

/**
 * Where a change is made behind the app's back: on PostgreSQL another instance's pool (a
 * second process would commit the same way); on PGlite, the only process, its own handle.
 */
async function otherWriter(t: TTestApp): Promise<TDatabase & { done(): Promise<void> }> {
  if (!t.database.pool) return { ...t.database, done: async () => {} };
  const url = (t.database.pool.options as { connectionString: string }).connectionString;
  const other = await openDatabase({ databaseUrl: url, poolSize: 1 });
  return { ...other, done: () => other.close() };
}

const get = (client: TestClient, url: string, headers: Record<string, string> = {}) =>
  client.request({ method: 'GET', url, headers });

describe.each(testDatabaseKinds())('answers kept between reads on %s', (kind) => {
  let t: TTestApp;
  let proxyReads: { count(): number };
  let other: Awaited<ReturnType<typeof otherWriter>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    proxyReads = countProxyReads(t);
    other = await otherWriter(t);
  });
  afterAll(async () => {
    await other?.done();
    await t?.close();
  });

  it('sends the same bytes without reading again, and the new ones after any commit', async () => {
    const { client } = await signedInClient(t);
    const first = await createProxy(client);
    await createProxy(client);
    const url = '/api/user/proxy-configurations';
    const before = await get(client, url);
    expect(before.statusCode).toBe(200);
    // On PostgreSQL any commit (a session's rolling expiry, pg-boss's upkeep) makes the next read
    // a new one: of a few reads in a row, one at least is sent again without reading.
    let reads = proxyReads.count();
    let keptOnce = false;
    for (let i = 0; i < 5 && !keptOnce; i += 1) {
      const again = await get(client, url);
      expect(again.statusCode).toBe(200);
      expect(again.headers['content-type']).toBe(before.headers['content-type']);
      expect(again.body).toBe(before.body);
      keptOnce = proxyReads.count() === reads;
      reads = proxyReads.count();
    }
    expect(keptOnce).toBe(true);
    // A HEAD of the same address keeps nothing that a GET would then be sent.
    const head = await client.request({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect((await get(client, url)).body).toBe(before.body);

    // A change committed elsewhere (another instance, the deploy engine) shows at the next read.
    await other.db
      .update(proxyConfigurations)
      .set({ status: 'failed' })
      .where(eq(proxyConfigurations.id, first.id));
    const after = await get(client, url);
    const row = (after.json() as { id: string; status: string }[]).find((p) => p.id === first.id);
    expect(row?.status).toBe('failed');
    expect(proxyReads.count()).toBeGreaterThan(reads);

    // And through the API: the owner's own edit.
    const edited = await client.write('PUT', `/api/user/proxy-configurations/${first.id}`, {
      ...first.input,
      targetServer: 'http://10.0.0.9:9000',
    });
    expect(edited.statusCode).toBe(200);
    const details = await get(client, `/api/proxy-configurations/${first.id}`);
    expect(details.json().targetServer).toBe('http://10.0.0.9:9000');
    const listed = (await get(client, url)).json() as { id: string; targetServer: string }[];
    expect(listed.find((p) => p.id === first.id)?.targetServer).toBe('http://10.0.0.9:9000');
  });

  it('keeps one answer per account and language', async () => {
    const { client: owner } = await signedInClient(t);
    const { client: stranger } = await signedInClient(t);
    const { id } = await createProxy(owner);
    await other.db
      .update(proxyConfigurations)
      .set({
        status: 'failed',
        lastFailure: {
          deploymentId: null,
          code: 'ssh_auth',
          step: 'connect',
          text: { key: 'deployLog.failure.cancelledDuring', params: { step: 'packages' } },
          message: 'x',
          at: new Date().toISOString(),
        },
      })
      .where(eq(proxyConfigurations.id, id));
    const url = `/api/proxy-configurations/${id}`;
    const messageIn = async (language: string) => {
      const answer = await get(owner, url, { 'accept-language': language });
      expect(answer.statusCode).toBe(200);
      return answer.json().lastFailure.message as string;
    };
    const english = await messageIn('en');
    const spanish = await messageIn('es');
    expect(english).not.toBe(spanish);
    expect(await messageIn('en')).toBe(english);
    expect(await messageIn('es')).toBe(spanish);
    // Another account asking for the same address gets its own answer: not found.
    expect((await get(stranger, url)).statusCode).toBe(404);
  });

  it('refuses at once a caller whose session ended or whose role changed', async () => {
    const { client: owner } = await signedInClient(t);
    const { client: admin, user: adminUser } = await namedClient(t, 'keptadmin', 'admin');
    const { client: root } = await namedClient(t, 'keptroot', 'admin');
    const { id } = await createProxy(owner);
    const all = '/api/admin/all-proxies';
    expect((await get(admin, all)).statusCode).toBe(200);
    expect((await get(admin, all)).statusCode).toBe(200);
    // An admin's token has user rights only: the admin's kept answers are not its own.
    const created = await admin.write('POST', '/api/account/tokens', {
      name: 'kept',
      scope: 'read',
      expiresInDays: null,
      password: TEST_PASSWORD,
    });
    expect(created.statusCode).toBe(201);
    const token = (created.json() as { token: string }).token;
    const viaToken = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect((await get(admin, `/api/proxy-configurations/${id}`)).statusCode).toBe(200);
    expect((await viaToken(`/api/proxy-configurations/${id}`)).statusCode).toBe(404);
    expect((await viaToken(all)).statusCode).toBe(403);

    const demoted = await root.write('PATCH', `/api/admin/users/${adminUser.id}/role`, {
      role: 'user',
    });
    expect(demoted.statusCode).toBe(200);
    expect((await get(admin, all)).statusCode).toBe(403);

    const mine = '/api/user/proxy-configurations';
    expect((await get(owner, mine)).statusCode).toBe(200);
    expect((await owner.write('POST', '/api/logout', {})).statusCode).toBe(200);
    expect((await get(owner, mine)).statusCode).toBe(401);
  });

  it('reads again for an admin after any commit, and for a user after a change of their own', async () => {
    const { client: owner } = await signedInClient(t);
    const { client: neighbour } = await signedInClient(t);
    const { client: admin } = await namedClient(t, 'keptwatcher', 'admin');
    const { id } = await createProxy(owner);
    const theirs = await createProxy(neighbour);
    const mine = '/api/user/proxy-configurations';
    const all = '/api/admin/all-proxies';
    const ownerBefore = (await get(owner, mine)).body;
    expect((await get(admin, all)).statusCode).toBe(200);

    await other.db
      .update(proxyConfigurations)
      .set({ targetServer: 'http://10.0.0.7:7000' })
      .where(eq(proxyConfigurations.id, theirs.id));
    const shown = (await get(admin, all)).json() as { id: string; targetServer: string }[];
    expect(shown.find((p) => p.id === theirs.id)?.targetServer).toBe('http://10.0.0.7:7000');
    const neighbourList = (await get(neighbour, mine)).json() as { targetServer: string }[];
    expect(neighbourList.map((p) => p.targetServer)).toEqual(['http://10.0.0.7:7000']);
    if (kind === 'postgres') {
      // Another account's change leaves this one's kept answer: sent again without reading.
      const reads = proxyReads.count();
      expect((await get(owner, mine)).body).toBe(ownerBefore);
      expect(proxyReads.count()).toBe(reads);
    }
    await other.db
      .update(proxyConfigurations)
      .set({ targetServer: 'http://10.0.0.8:8000' })
      .where(eq(proxyConfigurations.id, id));
    const ownerList = (await get(owner, mine)).json() as { targetServer: string }[];
    expect(ownerList.map((p) => p.targetServer)).toEqual(['http://10.0.0.8:8000']);
    // Deleted elsewhere: gone at the next read.
    await other.db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, id));
    expect((await get(owner, mine)).json()).toEqual([]);
    expect((await get(owner, `/api/proxy-configurations/${id}`)).statusCode).toBe(404);
  });

  it('shows a log line written since the last read', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const url = `/api/deployment-logs/${id}`;
    expect((await get(client, url)).json()).toEqual([]);
    expect((await get(client, url)).json()).toEqual([]);
    await other.db
      .insert(deploymentLogs)
      .values({ configurationId: id, level: 'info', message: 'line one', text: 'line one' });
    const lines = (await get(client, url)).json() as { message: string }[];
    expect(lines.map((line) => line.message)).toEqual(['line one']);
  });

  it('shows a run gone with its lines, and keeps the list while only lines are written', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const [run] = await other.db
      .insert(deployments)
      .values({ configurationId: id, trigger: 'deploy', status: 'completed' })
      .returning({ id: deployments.id });
    await other.db.insert(deploymentLogs).values({
      configurationId: id,
      deploymentId: run!.id,
      level: 'info',
      message: 'from the run',
      text: 'from the run',
    });
    const url = `/api/deployment-logs/${id}`;
    const mine = '/api/user/proxy-configurations';
    expect(((await get(client, url)).json() as unknown[]).length).toBe(1);
    const list = (await get(client, mine)).body;
    // A log line is no part of the list: written, it leaves the list's kept answer alone.
    await other.db
      .insert(deploymentLogs)
      .values({ configurationId: id, level: 'info', message: 'another', text: 'another' });
    const reads = proxyReads.count();
    expect((await get(client, mine)).body).toBe(list);
    expect(proxyReads.count()).toBe(reads);
    expect(((await get(client, url)).json() as unknown[]).length).toBe(2);
    // The run deleted: its lines go with it (the schema's cascade), and the answer shows it.
    await other.db.delete(deployments).where(eq(deployments.id, run!.id));
    const left = (await get(client, url)).json() as { message: string }[];
    expect(left.map((line) => line.message)).not.toContain('from the run');
  });

  it('keeps the logs through an edit, and ends them for an owner who lost the configuration', async () => {
    const { client, user } = await signedInClient(t);
    const owner = user.id;
    const { user: neighbour } = await signedInClient(t);
    const first = await createProxy(client);
    const second = await createProxy(client);
    await other.db
      .insert(deploymentLogs)
      .values({ configurationId: first.id, level: 'info', message: 'kept', text: 'kept' });
    const logs = `/api/deployment-logs/${first.id}`;
    const before = (await get(client, logs)).body;
    expect(JSON.parse(before).map((line: { message: string }) => line.message)).toEqual(['kept']);
    const edited = await client.write('PUT', `/api/user/proxy-configurations/${first.id}`, {
      ...first.input,
      targetServer: 'http://10.0.0.6:6000',
    });
    expect(edited.statusCode).toBe(200);
    if (kind === 'postgres') {
      // An edit changes no line and no owner: the logs are sent again without reading.
      const reads = proxyReads.count();
      expect((await get(client, logs)).body).toBe(before);
      expect(proxyReads.count()).toBe(reads);
      // `version` still moves with every change: an instance from before migration 0010
      // reads it alone.
      const counters = async () =>
        (await other.db.select().from(answerVersions).where(eq(answerVersions.userId, owner)))[0]!;
      const was = await counters();
      await other.db
        .insert(deploymentLogs)
        .values({ configurationId: second.id, level: 'info', message: 'x', text: 'x' });
      const afterLine = await counters();
      expect(afterLine).toEqual({
        ...was,
        version: was.version + 1,
        logsVersion: was.logsVersion + 1,
      });
      await other.db
        .update(proxyConfigurations)
        .set({ targetServer: 'http://10.0.0.5:5000' })
        .where(eq(proxyConfigurations.id, second.id));
      expect(await counters()).toEqual({
        ...afterLine,
        version: afterLine.version + 1,
        proxiesVersion: afterLine.proxiesVersion + 1,
      });
    } else {
      expect((await get(client, logs)).body).toBe(before);
    }
    // Given to another account behind the app's back: the old owner's next read is a 404.
    await other.db
      .update(proxyConfigurations)
      .set({ userId: neighbour.id })
      .where(eq(proxyConfigurations.id, first.id));
    expect((await get(client, logs)).statusCode).toBe(404);
    // Deleted: the same, with no log line written or deleted by anyone but the cascade.
    const secondLogs = `/api/deployment-logs/${second.id}`;
    expect((await get(client, secondLogs)).statusCode).toBe(200);
    expect((await get(client, secondLogs)).statusCode).toBe(200);
    await other.db.delete(proxyConfigurations).where(eq(proxyConfigurations.id, second.id));
    expect((await get(client, secondLogs)).statusCode).toBe(404);
  });
});
