// The actions of a saved server on a real lab server (testbed/): "redeploy all" starts one run
// and one log per proxy on it, goes on past a proxy it cannot start and reports each, and the
// sites end live over HTTPS; "check all certificates" reports each; a plain delete is refused
// while proxies use the server, saying how many; "delete with their sites" removes each site
// from the server as deleting the proxy does, then the server.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { rootProxy } from '../../../test/support/lab-app-helpers';
import { httpsGet } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { signedInClient, waitForStatus } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import { deployments, proxyConfigurations } from '../../db/schema';

let lab: TLab;
let s1: TLabServer;
let t: TTestApp;

beforeAll(async () => {
  lab = await startLab({ servers: 1 });
  s1 = lab.status.servers[0]!;
  t = await inProcessLabApp(lab.status);
});
afterAll(async () => {
  await t?.close();
  await lab?.stop();
});

describe('per-server actions on a lab server', () => {
  it('redeploys all, checks all certificates, refuses a plain delete, deletes with the sites', async () => {
    const { client } = await signedInClient(t);
    const root = s1.users.find((u) => u.name === 'root')!;
    const server = await client.write('POST', '/api/ssh-servers', {
      name: 's1',
      host: s1.address,
      username: 'root',
      password: root.password,
    });
    expect(server.statusCode, server.body).toBe(201);
    const serverId = server.json().id as string;

    // Two proxies on it, and a third that cannot start (no destination): it is reported, the
    // others run all the same.
    const ids: string[] = [];
    for (const [domain, target] of [
      [s1.domains[0]!, undefined],
      [s1.domains[1]!, undefined],
      [`broken.${s1.domains[0]!}`, null],
    ] as const) {
      const saved = await client.write('POST', '/api/proxy-configurations', {
        ...rootProxy(lab.status, s1, domain),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const id = saved.json().id as string;
      await t.database.db
        .update(proxyConfigurations)
        .set({ sshServerId: serverId, ...(target === null ? { targetServer: null } : {}) })
        .where(eq(proxyConfigurations.id, id));
      ids.push(id);
    }

    const redeploy = await client.write('POST', `/api/ssh-servers/${serverId}/redeploy-all`);
    expect(redeploy.statusCode, redeploy.body).toBe(200);
    const byId = new Map(
      redeploy.json().results.map((r: { id: string }) => [r.id, r] as const),
    ) as Map<string, { ok: boolean; deploymentId: string | null; text: unknown }>;
    expect(byId.get(ids[2]!)).toMatchObject({
      ok: false,
      deploymentId: null,
      text: { key: 'errors.deployNeedsTarget' },
    });
    for (const id of ids.slice(0, 2)) {
      expect(byId.get(id)?.ok).toBe(true);
      const body = await waitForStatus(client, id, (s) => s === 'completed' || s === 'failed');
      expect(body.status).toBe('completed');
      const [run] = await t.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, byId.get(id)!.deploymentId!));
      expect(run).toMatchObject({ configurationId: id, status: 'completed' });
    }
    for (const domain of s1.domains.slice(0, 2)) {
      expect((await httpsGet(lab.status, s1.address, domain, '/')).status).toBe(200);
    }

    const checks = await client.write('POST', `/api/ssh-servers/${serverId}/check-certificates`);
    expect(checks.statusCode, checks.body).toBe(200);
    expect(checks.json().results.map((r: { id: string; ok: boolean }) => [r.id, r.ok])).toEqual(
      expect.arrayContaining([
        [ids[0], true],
        [ids[1], true],
        [ids[2], false],
      ]),
    );

    const refused = await client.write('DELETE', `/api/ssh-servers/${serverId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ssh_server_in_use',
      text: { key: 'errors.sshServerInUse', params: { count: 3 } },
    });

    const removed = await client.write('POST', `/api/ssh-servers/${serverId}/delete-with-sites`, {
      removeCertificates: true,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().deleted).toBe(true);
    expect(removed.json().results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    // True on the server: the sites' nginx files are gone.
    for (const domain of s1.domains.slice(0, 2)) {
      const left = await lab.exec(s1.name, [
        'test',
        '-e',
        `/etc/nginx/sites-available/proxy-${domain}`,
      ]);
      expect(left.code).not.toBe(0);
    }
    const gone = await client.request({ method: 'GET', url: `/api/ssh-servers/${serverId}` });
    expect(gone.statusCode).toBe(404);
  });
});
