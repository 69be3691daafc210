// The actions of a saved server on a real lab server (testbed/): "redeploy all" answers 202 with
// a background run that starts one deployment and log per proxy, waits for each, goes on past a
// proxy it cannot start and reports each (the run ends done with both sites live over HTTPS);
// "check all certificates" is a run too, reported per proxy; a plain delete is refused
// while proxies use the server, saying how many; "delete with their sites" removes each site
// from the server as deleting the proxy does, then the server.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { rootProxy } from '../../../test/support/lab-app-helpers';
import { httpsGet } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { runEnded } from '../../../test/support/server-run-helpers';
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

    // "Redeploy all" answers at once with its run; the run goes through the proxies in the
    // background, waiting for each deployment to end.
    const redeploy = await client.write('POST', `/api/ssh-servers/${serverId}/redeploy-all`);
    expect(redeploy.statusCode, redeploy.body).toBe(202);
    expect(redeploy.json()).toMatchObject({ kind: 'redeploy', total: 3 });
    const again = await client.write('POST', `/api/ssh-servers/${serverId}/check-certificates`);
    expect(again.statusCode).toBe(409);
    const redeployed = await runEnded(client, serverId, redeploy.json().id);
    expect(redeployed).toMatchObject({ state: 'done', done: 2, failed: 0, refused: 1, total: 3 });
    const byId = new Map(redeployed.results.map((r: { id: string }) => [r.id, r] as const)) as Map<
      string,
      { outcome: string; deploymentId: string | null; text: unknown }
    >;
    expect(byId.get(ids[2]!)).toMatchObject({
      outcome: 'refused',
      deploymentId: null,
      text: { key: 'errors.deployNeedsTarget' },
    });
    for (const id of ids.slice(0, 2)) {
      expect(byId.get(id)).toMatchObject({ outcome: 'done', text: null });
      const [run] = await t.database.db
        .select()
        .from(deployments)
        .where(eq(deployments.id, byId.get(id)!.deploymentId!));
      expect(run).toMatchObject({ configurationId: id, status: 'completed' });
      const proxy = await client.request({ method: 'GET', url: `/api/proxy-configurations/${id}` });
      expect(proxy.json().status).toBe('completed');
    }
    for (const domain of s1.domains.slice(0, 2)) {
      expect((await httpsGet(lab.status, s1.address, domain, '/')).status).toBe(200);
    }

    const checks = await client.write('POST', `/api/ssh-servers/${serverId}/check-certificates`);
    expect(checks.statusCode, checks.body).toBe(202);
    const checked = await runEnded(client, serverId, checks.json().id);
    expect(checked).toMatchObject({ state: 'done', done: 2, refused: 1 });
    expect(checked.results.map((r: { id: string; outcome: string }) => [r.id, r.outcome])).toEqual(
      expect.arrayContaining([
        [ids[0], 'done'],
        [ids[1], 'done'],
        [ids[2], 'refused'],
      ]),
    );
    const latest = await client.request({
      method: 'GET',
      url: `/api/ssh-servers/${serverId}/runs/latest`,
    });
    expect(latest.json().run.id).toBe(checks.json().id);

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
