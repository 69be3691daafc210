// The limits of the certificate actions (issue 35) over the real API, on PGlite and PostgreSQL:
// "Renew now" at most 2 times a day and 4 a week per proxy and 10 a day per account, "Test
// renewal" 4 times an hour per proxy, counted from the runs Portico stored. A refused action
// answers 429 with its code and, in the caller's language, why and the minute it may run
// again; nothing is recorded, audited or queued, whoever asks (owner, admin, API token).
import type { TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import { translate } from '@portico/shared/i18n/translate';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  markDeployed,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { TEST_PASSWORD, type TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, deploymentLogs, deployments } from '../../db/schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

/** The minute a limit lets go: the oldest counted start plus the window, rounded up. */
const retryMinute = (start: Date, windowMs: number) =>
  new Date(Math.ceil((start.getTime() + windowMs) / MINUTE) * MINUTE).toISOString();

describe.each(testDatabaseKinds())('certificate action limits on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  /** A deployed proxy whose actions fail at once at their connect step (port 1 refuses). */
  async function deployedProxy(client: TestClient) {
    const { id, input } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    await markDeployed(t, id);
    return { id, domain: input.domain };
  }

  /** Past runs of the proxy, as finished runs leave them, started `ago` ms back. */
  async function pastRuns(id: string, trigger: 'renew' | 'renew_test', ...ago: number[]) {
    const now = Date.now();
    return t.database.db
      .insert(deployments)
      .values(
        ago.map((ms) => ({
          configurationId: id,
          trigger,
          status: 'completed' as const,
          language: 'en',
          createdAt: new Date(now - ms),
          finishedAt: new Date(now - ms + 30_000),
        })),
      )
      .returning();
  }

  const runsOf = (id: string) =>
    t.database.db.select().from(deployments).where(eq(deployments.configurationId, id));
  const jobsOf = async (id: string) => {
    const rows = await t.database.db.execute(
      sql`select count(*)::int as n from pgboss.job where data->>'configurationId' = ${id}`,
    );
    return Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n);
  };
  const auditOf = (id: string, action: string) =>
    t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, action)));

  const post = (client: TestClient, id: string, path: string, lang: TLanguage = 'en') =>
    client.write('POST', `/api/proxy-configurations/${id}/certificate/${path}`, undefined, {
      'accept-language': lang,
    });
  const status = async (client: TestClient, id: string) =>
    (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}/certificate` })
    ).json();

  /** Waits for the proxy's run to end (it fails at connect: nothing answers on port 1). */
  async function ended(client: TestClient, id: string, deploymentId: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await status(client, id);
      if (s.lastAction?.deploymentId === deploymentId && s.lastAction.status === 'failed') return;
      if (Date.now() > deadline) throw new Error(`run ${deploymentId} did not end`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The refusal as the API must give it: status, code, and the sentence naming the minute. */
  function expectRefused(
    response: Awaited<ReturnType<typeof post>>,
    code: string,
    limit: string,
    max: number,
    retryAt: string,
    lang: TLanguage,
  ) {
    expect(response.statusCode, response.body).toBe(429);
    const at = renderText(lang, { date: retryAt });
    expect(response.json()).toEqual({
      statusCode: 429,
      code,
      message: translate(lang, `errors.actionLimited.${limit}`, { max, at }),
      text: { key: `errors.actionLimited.${limit}`, params: { max, at } },
    });
    expect(response.json().message).toContain(at);
    // Retry-After: the seconds until then (a second or so passes between the two clocks).
    const seconds = Number(response.headers['retry-after']);
    expect(Math.abs(seconds - (Date.parse(retryAt) - Date.now()) / 1000)).toBeLessThan(5);
  }

  it('accepts two forced renewals a day for a proxy, refuses the third in either language, and records, audits and queues nothing for it', async () => {
    const { client } = await signedInClient(t);
    const { id } = await deployedProxy(client);
    for (let i = 0; i < 2; i += 1) {
      const started = await post(client, id, 'renew');
      expect(started.statusCode, started.body).toBe(202);
      await ended(client, id, started.json().deploymentId);
    }
    const runs = await runsOf(id);
    expect(runs).toHaveLength(2);
    const jobs = await jobsOf(id);
    expect(jobs).toBe(2);
    const oldest = runs.map((r) => r.createdAt).sort((a, b) => a.getTime() - b.getTime())[0]!;
    const retryAt = retryMinute(oldest, DAY);
    expectRefused(
      await post(client, id, 'renew', 'en'),
      'renewal_limited',
      'proxyDay',
      2,
      retryAt,
      'en',
    );
    expectRefused(
      await post(client, id, 'renew', 'es'),
      'renewal_limited',
      'proxyDay',
      2,
      retryAt,
      'es',
    );
    expect(await post(client, id, 'renew', 'es').then((r) => r.json().message)).toContain(
      'Podrás renovar de nuevo a partir del',
    );
    expect(await runsOf(id)).toHaveLength(2);
    expect(await jobsOf(id)).toBe(2);
    expect(await auditOf(id, 'proxy.certificate_renew')).toHaveLength(2);
    // The details page says the same before anyone clicks.
    expect((await status(client, id)).held).toEqual({
      renew: { limit: 'proxyDay', max: 2, retryAt },
      renew_test: null,
    });
    // "Test renewal" has a limit of its own: still available.
    expect((await post(client, id, 'renew-test')).statusCode).toBe(202);
  });

  it('refuses the fifth forced renewal in 7 days, naming when the oldest of the four leaves the week', async () => {
    const { client } = await signedInClient(t);
    const { id } = await deployedProxy(client);
    const runs = await pastRuns(id, 'renew', 6 * DAY, 5 * DAY, 4 * DAY, 3 * DAY);
    const retryAt = retryMinute(runs[0]!.createdAt, 7 * DAY);
    expectRefused(
      await post(client, id, 'renew', 'es'),
      'renewal_limited',
      'proxyWeek',
      4,
      retryAt,
      'es',
    );
    // A run older than the week does not count: three of the week's four remain.
    await t.database.db
      .update(deployments)
      .set({ createdAt: new Date(Date.now() - 8 * DAY) })
      .where(eq(deployments.id, runs[0]!.id));
    expect((await post(client, id, 'renew')).statusCode).toBe(202);
  });

  it('holds the limit for an admin and for an API token of the owner alike', async () => {
    const { client } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    const { id } = await deployedProxy(client);
    const [a, b] = await pastRuns(id, 'renew', 3 * HOUR, 2 * HOUR);
    const retryAt = retryMinute(a!.createdAt, DAY);
    expect(b).toBeDefined();
    expectRefused(
      await post(admin, id, 'renew', 'es'),
      'renewal_limited',
      'proxyDay',
      2,
      retryAt,
      'es',
    );
    const created = await client.write('POST', '/api/account/tokens', {
      name: 'ci',
      scope: 'manage',
      expiresInDays: null,
      password: TEST_PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const byToken = await t.app.inject({
      method: 'POST',
      url: `/api/proxy-configurations/${id}/certificate/renew`,
      headers: { authorization: `Bearer ${created.json().token}`, 'accept-language': 'en' },
    });
    expectRefused(byToken, 'renewal_limited', 'proxyDay', 2, retryAt, 'en');
    expect(await runsOf(id)).toHaveLength(2);
    expect(await jobsOf(id)).toBe(0);
  });

  it('caps an account at 10 forced renewals a day over all its proxies; another account is not held', async () => {
    const { client } = await signedInClient(t);
    const starts: Date[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { id } = await deployedProxy(client);
      const runs = await pastRuns(id, 'renew', (20 - 2 * i) * HOUR, (19 - 2 * i) * HOUR);
      starts.push(...runs.map((r) => r.createdAt));
    }
    const fresh = await deployedProxy(client);
    const oldest = starts.sort((a, b) => a.getTime() - b.getTime())[0]!;
    expectRefused(
      await post(client, fresh.id, 'renew', 'en'),
      'renewal_limited',
      'accountDay',
      10,
      retryMinute(oldest, DAY),
      'en',
    );
    expect(await runsOf(fresh.id)).toEqual([]);
    const { client: other } = await signedInClient(t);
    const theirs = await deployedProxy(other);
    expect((await post(other, theirs.id, 'renew')).statusCode).toBe(202);
  });

  it('limits Test renewal on its own: 4 an hour per proxy, while Renew now stays available', async () => {
    const { client } = await signedInClient(t);
    const { id } = await deployedProxy(client);
    const runs = await pastRuns(
      id,
      'renew_test',
      50 * MINUTE,
      40 * MINUTE,
      30 * MINUTE,
      20 * MINUTE,
    );
    const retryAt = retryMinute(runs[0]!.createdAt, HOUR);
    for (const lang of ['en', 'es'] as const) {
      expectRefused(
        await post(client, id, 'renew-test', lang),
        'renewal_test_limited',
        'proxyHour',
        4,
        retryAt,
        lang,
      );
    }
    expect(await runsOf(id)).toHaveLength(4);
    expect(await jobsOf(id)).toBe(0);
    expect((await status(client, id)).held).toEqual({
      renew: null,
      renew_test: { limit: 'proxyHour', max: 4, retryAt },
    });
    expect((await post(client, id, 'renew')).statusCode).toBe(202);
  });

  it('counts the certificates the proxy obtained in the last 7 days beside the limit of 5', async () => {
    const { client } = await signedInClient(t);
    const { id, domain } = await deployedProxy(client);
    const now = Date.now();
    const run = async (trigger: 'deploy' | 'renew', ago: number, key: string | null) => {
      const [row] = await t.database.db
        .insert(deployments)
        .values({
          configurationId: id,
          trigger,
          status: 'completed',
          language: 'en',
          createdAt: new Date(now - ago),
        })
        .returning();
      const line = (k: string) => ({
        configurationId: id,
        deploymentId: row!.id,
        level: 'success' as const,
        message: k,
        text: { key: k, params: { domain } },
      });
      await t.database.db
        .insert(deploymentLogs)
        .values([line('deployLog.connect.connected'), ...(key ? [line(key)] : [])]);
    };
    await run('deploy', 6 * DAY, 'deployLog.certificate.obtained');
    await run('renew', 2 * DAY, 'deployLog.certAction.renewed');
    // A deployment that kept the certificate, and a renewal older than the week: not counted.
    await run('deploy', 1 * DAY, 'deployLog.certificate.kept');
    await run('renew', 8 * DAY, 'deployLog.certAction.renewed');
    expect((await status(client, id)).recentlyIssued).toEqual({ count: 2, days: 7, max: 5 });
  });
});
