// The plan and apply calls (issue 39) without a server to reach: who may ask, what a bad body
// gets, a server that cannot be reached, and the apply's guard handed to the run's job. The
// plan against real servers is in deploy/engine/plan.lab.test.ts.
import { translate } from '@portico/shared/i18n/translate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tcpCounter } from '../../../test/security/injection-api-helpers';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { deployments, proxyConfigurations } from '../../db/schema';
import { PLANS_PER_MINUTE } from './deployments.routes';

const FINGERPRINT = `v1:${'0123456789abcdef'.repeat(4)}`;

describe.each(testDatabaseKinds())('deployment plans API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it("another account's proxy is not found, for a plan and an apply alike", async () => {
    const { client: owner } = await signedInClient(t);
    const { client: other } = await signedInClient(t);
    const { id } = await createProxy(owner);
    const plan = await other.write('POST', `/api/proxy-configurations/${id}/plan`, {});
    expect(plan.statusCode).toBe(404);
    const apply = await other.write('POST', `/api/proxy-configurations/${id}/apply`, {
      fingerprint: FINGERPRINT,
    });
    expect(apply.statusCode).toBe(404);
  });

  it.each([
    ['en', 'Please enter a valid URL'],
    ['es', 'Introduce una URL válida'],
  ])('a proposed target that is not one is refused on its field (%s)', async (lang, words) => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const response = await client.write(
      'POST',
      `/api/proxy-configurations/${id}/plan`,
      { targetServer: 'ht tp://x' },
      { 'accept-language': lang },
    );
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.issues).toEqual([
      expect.objectContaining({ path: 'targetServer', message: words }),
    ]);
  });

  it('hostile targets are refused before any connection to the server', async () => {
    const ssh = await tcpCounter();
    try {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: ssh.port });
      for (const targetServer of [
        'http://10.0.0.5:8080;rm -rf /',
        'http://10.0.0.5:8080/$(id)',
        'http://10.0.0.5:8080/`id`',
        'http://10.0.0.5:8080\nreturn 200;',
        'http://10.0.0.5:8080/a b',
        'http://10.0.0.5:8080/{x}',
        'javascript:alert(1)',
        '-oProxyCommand=id',
      ]) {
        const response = await client.write('POST', `/api/proxy-configurations/${id}/plan`, {
          targetServer,
        });
        expect(response.statusCode, targetServer).toBe(400);
        expect(response.json().issues[0].path, targetServer).toBe('targetServer');
      }
      expect(ssh.count()).toBe(0);
    } finally {
      await ssh.close();
    }
  });

  it('an apply without a plan fingerprint is refused and queues nothing', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client);
    const response = await client.write('POST', `/api/proxy-configurations/${id}/apply`, {
      fingerprint: 'anything',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues[0].path).toBe('fingerprint');
    const runs = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.configurationId, id));
    expect(runs).toEqual([]);
  });

  it.each([
    ['en', 'The plan could not be made: '],
    ['es', 'No se pudo preparar el plan: '],
  ])(
    'a server that cannot be reached: 502 saying why, and the proxy unchanged (%s)',
    async (lang, start) => {
      const { client } = await signedInClient(t);
      // Port 1 on loopback refuses at once (the test app allows loopback servers).
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
      const [before] = await t.database.db
        .select()
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id));
      const response = await client.write(
        'POST',
        `/api/proxy-configurations/${id}/plan`,
        {},
        { 'accept-language': lang },
      );
      expect(response.statusCode).toBe(502);
      const body = response.json();
      expect(body.code).toBe('plan_failed');
      expect(body.message.startsWith(start)).toBe(true);
      expect(body.message).toContain('127.0.0.1');
      expect(body.text.key).toBe('deployLog.plan.failed');
      const [after] = await t.database.db
        .select()
        .from(proxyConfigurations)
        .where(eq(proxyConfigurations.id, id));
      expect(after).toEqual(before);
    },
  );

  it('limits each user to 10 plans a minute (429 in their language); another user still plans', async () => {
    const ssh = await tcpCounter();
    try {
      const { client } = await signedInClient(t);
      const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof client.write>> | undefined;
      for (let i = 0; i <= PLANS_PER_MINUTE; i++) {
        last = await client.write(
          'POST',
          `/api/proxy-configurations/${id}/plan`,
          {},
          { 'accept-language': 'es' },
        );
        statuses.push(last.statusCode);
      }
      // Port 1 refuses at once: each allowed plan tried the server and failed (502).
      expect(statuses).toEqual([...Array(PLANS_PER_MINUTE).fill(502), 429]);
      expect(last!.headers['retry-after']).toMatch(/^\d+$/);
      expect(last!.json()).toMatchObject({
        code: 'rate_limited',
        message: translate('es', 'errors.rateLimited', { seconds: last!.headers['retry-after']! }),
      });
      // Refused before any connection: a limited plan never reaches the server.
      const { id: counted } = await createProxy(client, {
        serverIp: '127.0.0.1',
        sshPort: ssh.port,
      });
      const refused = await client.write('POST', `/api/proxy-configurations/${counted}/plan`, {});
      expect(refused.statusCode).toBe(429);
      expect(ssh.count()).toBe(0);

      const { client: other } = await signedInClient(t);
      const { id: theirs } = await createProxy(other, { serverIp: '127.0.0.1', sshPort: 1 });
      expect(
        (await other.write('POST', `/api/proxy-configurations/${theirs}/plan`, {})).statusCode,
      ).toBe(502);
    } finally {
      await ssh.close();
    }
  });

  it("apply queues the run with the plan's fingerprint for its guard", async () => {
    const { client } = await signedInClient(t);
    // A server nobody answers at: the run fails at connect, after it was queued as asked.
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const response = await client.write('POST', `/api/proxy-configurations/${id}/apply`, {
      fingerprint: FINGERPRINT,
    });
    expect(response.statusCode).toBe(202);
    const { deploymentId } = response.json();
    const [run] = await t.database.db
      .select()
      .from(deployments)
      .where(eq(deployments.id, deploymentId));
    expect(run!.trigger).toBe('deploy');
    const job = await t.app.queue.deployJobInfo(run!.jobId!);
    expect(job?.data.planFingerprint).toBe(FINGERPRINT);
  });
});
