import { translate } from '@portico/shared/i18n/translate';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  markDeployed,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, certificateStatus, deployments, proxyConfigurations } from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(testDatabaseKinds())('certificates API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  /** A proxy as a completed deployment leaves it: HTTPS on, status completed. */
  async function deployedProxy(client: TestClient, overrides: Record<string, unknown> = {}) {
    const { id, input } = await createProxy(client, overrides);
    await markDeployed(t, id);
    return { id, input };
  }

  const status = (client: TestClient, id: string) =>
    client.request({ method: 'GET', url: `/api/proxy-configurations/${id}/certificate` });

  it('shows the owner and an admin the certificate section; others get 404', async () => {
    const { client } = await signedInClient(t);
    const { client: other } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    const { id, input } = await deployedProxy(client);
    const mine = await status(client, id);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      configurationId: id,
      domain: input.domain,
      state: null,
      daysLeft: null,
      served: null,
      check: null,
      checkPending: false,
      onServer: null,
      nginxNotReloaded: false,
      renewal: null,
      recentlyIssued: { count: 0, days: 7, max: 5 },
      lastAction: null,
      held: { renew: null, renew_test: null },
      uploaded: null,
    });
    expect((await status(admin, id)).statusCode).toBe(200);
    expect((await status(other, id)).statusCode).toBe(404);
    const check = await other.write('POST', `/api/proxy-configurations/${id}/certificate/check`);
    expect(check.statusCode).toBe(404);
  });

  it('refuses checks and actions on a proxy without a certificate, saying so', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    for (const path of ['check', 'renew', 'renew-test']) {
      const response = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/${path}`,
        undefined,
        { 'accept-language': 'es' },
      );
      expect(response.statusCode, path).toBe(409);
      expect(response.json().message).toBe(
        'Este proxy aún no tiene certificado en su servidor: despliégalo primero.',
      );
    }
    expect(
      await t.database.db.select().from(deployments).where(eq(deployments.configurationId, id)),
    ).toEqual([]);
  });

  it('queues a check on demand and records its result', async () => {
    const { client } = await signedInClient(t);
    // Whatever answers (or not) on loopback's port 443, the check ends and records it.
    const { id } = await deployedProxy(client, { serverIp: '127.0.0.1' });
    const response = await client.write(
      'POST',
      `/api/proxy-configurations/${id}/certificate/check`,
    );
    expect(response.statusCode).toBe(202);
    const done = await waitFor(
      async () => (await status(client, id)).json(),
      (body) => body.check !== null && body.checkPending === false,
    );
    expect(done.check.checkedAt).toEqual(expect.any(String));
  });

  it('runs Test renewal as a run of its own: logged, audited, the proxy status untouched', async () => {
    const { client, user } = await signedInClient(t);
    // Port 1 refuses at once: the action fails at its connect step.
    const { id } = await deployedProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const response = await client.write(
      'POST',
      `/api/proxy-configurations/${id}/certificate/renew-test`,
      undefined,
      { 'accept-language': 'es' },
    );
    expect(response.statusCode).toBe(202);
    const { deploymentId } = response.json();
    const finished = await waitFor(
      async () => (await status(client, id)).json(),
      (body) => body.lastAction?.status === 'failed',
    );
    expect(finished.lastAction).toMatchObject({ kind: 'renew_test', deploymentId });
    const [proxy] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(proxy!.status).toBe('completed');
    const [run] = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.id, deploymentId));
    expect(run).toMatchObject({ trigger: 'renew_test', language: 'es', requestedBy: user.id });
    expect(run!.errorCode).toBe('tcp_connect');
    const logs = await client.request({ method: 'GET', url: `/api/deployment-logs/${id}` });
    const lines = logs.json() as { deploymentId: string; level: string }[];
    expect(lines.filter((l) => l.deploymentId === deploymentId).at(-1)?.level).toBe('error');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'proxy.certificate_test')));
    expect(audit).toHaveLength(1);
  });

  it('presents the saved password only to the deployed server: an action after moving the proxy is refused', async () => {
    const { client } = await signedInClient(t);
    const { id } = await deployedProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    // The proxy now points at another server, and the password saved is the one entered for it;
    // the certificate is still on the deployed server, where that password must not go. A move
    // takes it off the saved server its typed fields saved (whose password is for the old one).
    await t.database.db
      .update(proxyConfigurations)
      .set({
        serverIp: '198.51.100.7',
        sshPasswordTarget: 'root@198.51.100.7:1',
        sshServerId: null,
      })
      .where(eq(proxyConfigurations.id, id));
    for (const [path, lang] of [
      ['renew', 'es'],
      ['renew-test', 'en'],
    ] as const) {
      const response = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/${path}`,
        undefined,
        { 'accept-language': lang },
      );
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'certificate_needs_password',
        message: translate(lang, 'errors.certificateNeedsPassword'),
      });
    }
    expect(
      await t.database.db.select().from(deployments).where(eq(deployments.configurationId, id)),
    ).toEqual([]);
  });

  it('keeps one run at a time: an action waits for a deployment and the other way round', async () => {
    const { client } = await signedInClient(t);
    const { id } = await deployedProxy(client);
    // A run that stays queued: inserted as the service would, without a job.
    const [held] = await t.database.db
      .insert(deployments)
      .values({ configurationId: id, trigger: 'renew', status: 'running', language: 'en' })
      .returning();
    for (const path of ['renew', 'renew-test']) {
      const response = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/certificate/${path}`,
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('is still running');
    }
    const deploy = await client.write('POST', `/api/deploy/${id}`);
    expect(deploy.statusCode).toBe(409);
    const [proxy] = await t.database.db
      .select()
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    expect(proxy!.status).toBe('completed');
    await t.database.db
      .update(deployments)
      .set({ status: 'failed' })
      .where(eq(deployments.id, held!.id));
  });

  it('lists, for admins only, the certificates that need attention, most urgent first', async () => {
    const { client: owner, user } = await signedInClient(t);
    const { client: admin } = await signedInClient(t, 'admin');
    const now = Date.now();
    const served = (daysLeftAt: number, lifetime = 90) => ({
      fingerprint: `FP:${daysLeftAt}`,
      notBefore: new Date(now - (lifetime - daysLeftAt) * DAY).toISOString(),
      notAfter: new Date(now + daysLeftAt * DAY).toISOString(),
      issuer: 'Test CA',
      names: ['x'],
    });
    const check = (ok: boolean) => ({
      checkedAt: new Date(now).toISOString(),
      ok,
      problem: ok ? null : { key: 'certificates.problem.refused', params: { where: 'x:443' } },
      httpRedirects: true,
      httpProblem: null,
    });
    const fine = await deployedProxy(owner);
    const warning = await deployedProxy(owner);
    const danger = await deployedProxy(owner);
    const failing = await deployedProxy(owner);
    await t.database.db.insert(certificateStatus).values([
      { configurationId: fine.id, served: served(80), lastCheck: check(true) },
      { configurationId: warning.id, served: served(20), lastCheck: check(true) },
      { configurationId: danger.id, served: served(3), lastCheck: check(true) },
      { configurationId: failing.id, served: served(60), lastCheck: check(false) },
    ]);
    expect(
      (await owner.request({ method: 'GET', url: '/api/admin/certificates' })).statusCode,
    ).toBe(403);
    const list = (
      await admin.request({ method: 'GET', url: '/api/admin/certificates' })
    ).json() as {
      configurationId: string;
      reasons: string[];
      username: string;
      daysLeft: number;
    }[];
    const mine = list.filter((row) => row.username === user.username);
    expect(mine.map((row) => [row.configurationId, row.reasons])).toEqual([
      [danger.id, ['danger']],
      [failing.id, ['checkFailed']],
      [warning.id, ['warning']],
    ]);
    const summaries = (await owner.request({ method: 'GET', url: '/api/certificates' })).json() as {
      configurationId: string;
      state: string;
      daysLeft: number;
    }[];
    expect(summaries.find((s) => s.configurationId === fine.id)).toMatchObject({
      state: 'fine',
      daysLeft: 79,
    });
    expect(summaries.find((s) => s.configurationId === warning.id)?.state).toBe('warning');
  });
  it("summarises only the page's proxies asked for by id, and only the caller's", async () => {
    const { client: owner } = await signedInClient(t);
    const { client: other } = await signedInClient(t);
    const served = {
      fingerprint: 'FP:page',
      notBefore: new Date(Date.now() - 10 * DAY).toISOString(),
      notAfter: new Date(Date.now() + 80 * DAY).toISOString(),
      issuer: 'Test CA',
      names: ['x'],
    };
    const [a, b] = [await deployedProxy(owner), await deployedProxy(owner)];
    const theirs = await deployedProxy(other);
    await t.database.db
      .insert(certificateStatus)
      .values([a, b, theirs].map(({ id }) => ({ configurationId: id, served })));
    const summaries = async (query: string) =>
      owner.request({ method: 'GET', url: `/api/certificates${query}` });
    const ids = (answer: { json: () => unknown }) =>
      (answer.json() as { configurationId: string }[]).map((row) => row.configurationId).sort();

    expect(ids(await summaries(`?ids=${a.id},${theirs.id}`))).toEqual([a.id]);
    expect(ids(await summaries(`?ids=${b.id.toUpperCase()}`))).toEqual([b.id]);
    expect(ids(await summaries(''))).toEqual([a.id, b.id].sort());
    for (const bad of ['x', `${a.id},`, `${a.id};drop`, Array(201).fill(a.id).join(',')]) {
      const refused = await summaries(`?ids=${encodeURIComponent(bad)}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().issues).toEqual([
        { path: 'ids', message: translate('en', 'validation.invalidId') },
      ]);
    }
  });
});
