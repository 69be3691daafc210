// "Sites on this server" on real lab servers (testbed/): s1 carries hand-written sites (a plain
// proxy, a static site, a site split over an include, one block with two names, a certbot-style
// TLS site, one name served twice); s2's configuration fails nginx -t (edited, never reloaded).
// Every file and directory under /etc/nginx and /etc/letsencrypt is compared before and after:
// a scan writes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { serverFiles as labServerFiles } from '../../../test/support/lab-server-files';
import {
  saveLabServer,
  signedInClient,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';

let lab: TLab;
let portico: TTestApp;
let app: TTestApp['app'];

beforeAll(async () => {
  lab = await startLab({ servers: 2, variants: { s1: ['hand-sites'], s2: ['nginx-broken'] } });
  portico = await inProcessLabApp(lab.status, {
    config: { ...TEST_APP_OPTIONS.config, secretKeyFile: testSecretKeyFile() },
  });
  app = portico.app;
});
afterAll(async () => {
  await portico?.close();
  await lab?.stop();
});

/** What the scan is compared on: nginx's and certbot's files. */
const serverFiles = (server: TLabServer) =>
  labServerFiles(lab, server, ['/etc/nginx', '/etc/letsencrypt']);

const zone = (server: TLabServer) => `${server.name}.portico.test`;

describe('POST /api/ssh-servers/{id}/scan on lab servers', () => {
  it('classifies each hand-written site, as root and through sudo, and writes nothing', async () => {
    const s1 = lab.status.servers[0]!;
    const z = zone(s1);
    const before = await serverFiles(s1);
    expect(before).toContain(`/etc/letsencrypt/live/h-tls.${z}/fullchain.pem`);
    const { client } = await signedInClient(app);
    for (const user of s1.users) {
      const id = await saveLabServer(client, s1, user);
      const response = await client.write('POST', `/api/ssh-servers/${id}/scan`);
      expect(response.statusCode, response.body).toBe(200);
      const scan = response.json();
      expect(scan.nginxTest.ok).toBe(true);
      const site = (name: string) =>
        scan.sites.find((s: { serverName: string }) => s.serverName === name);
      expect(site(`h-proxy.${z}`)).toMatchObject({
        class: 'adoptable',
        target: 'http://127.0.0.1:8081',
        file: '/etc/nginx/sites-enabled/h-proxy',
        ports: [80],
        tls: false,
      });
      expect(site(`h-static.${z}`)).toMatchObject({
        class: 'not_proxy',
        reason: 'static',
        root: '/var/www/h-static',
      });
      expect(site(`h-split.${z}`)).toMatchObject({
        class: 'adoptable',
        target: 'http://127.0.0.1:8083',
        file: '/etc/nginx/conf.d/h-split.conf',
      });
      for (const name of [`h-two-a.${z}`, `h-two-b.${z}`]) {
        expect(site(name)).toMatchObject({
          class: 'adoptable',
          target: 'http://127.0.0.1:8084',
          file: '/etc/nginx/sites-enabled/h-two',
        });
      }
      expect(site(`h-dup.${z}`)).toMatchObject({ class: 'conflict', reason: 'served_twice' });
      const tls = site(`h-tls.${z}`);
      expect(tls).toMatchObject({
        class: 'adoptable',
        target: 'http://127.0.0.1:8082',
        tls: true,
        ports: [80, 443],
        certificate: `h-tls.${z}`,
        certificatePath: `/etc/letsencrypt/live/h-tls.${z}/fullchain.pem`,
        redirect: '301 https://$host$request_uri',
      });
      const notAfter = (
        await lab.exec(s1.name, [
          'openssl',
          'x509',
          '-noout',
          '-enddate',
          '-in',
          `/etc/letsencrypt/live/h-tls.${z}/cert.pem`,
        ])
      ).stdout
        .replace(/^notAfter=/, '')
        .trim();
      expect(tls.certificateExpiresAt).toBe(new Date(notAfter).toISOString());
      expect(scan.certificates).toEqual([
        {
          name: `h-tls.${z}`,
          domains: [`h-tls.${z}`],
          expiresAt: new Date(notAfter).toISOString(),
          authenticator: 'nginx',
          installer: 'nginx',
          path: `/etc/letsencrypt/live/h-tls.${z}/cert.pem`,
        },
      ]);
      // The hash is the file's as the server has it.
      const real = (await lab.exec(s1.name, ['sha256sum', '/etc/nginx/sites-enabled/h-proxy']))
        .stdout;
      expect(real.startsWith(site(`h-proxy.${z}`).fileSha256)).toBe(true);
    }
    expect(await serverFiles(s1)).toBe(before);
  });

  it('calls every site broken on a server whose nginx -t fails, says nginx’s words, writes nothing', async () => {
    const s2 = lab.status.servers[1]!;
    const before = await serverFiles(s2);
    const { client } = await signedInClient(app);
    const id = await saveLabServer(client, s2, s2.users[0]!);
    const response = await client.write('POST', `/api/ssh-servers/${id}/scan`);
    expect(response.statusCode, response.body).toBe(200);
    const scan = response.json();
    expect(scan.nginxTest.ok).toBe(false);
    expect(scan.nginxTest.output).toContain('unknown directive "bogus_directive"');
    const broken = scan.sites.find(
      (s: { serverName: string }) => s.serverName === `h-broken.${zone(s2)}`,
    );
    expect(broken).toMatchObject({ class: 'broken', file: '/etc/nginx/sites-enabled/h-broken' });
    expect(scan.sites.every((s: { class: string }) => s.class === 'broken')).toBe(true);
    expect(await serverFiles(s2)).toBe(before);
  });
});

describe('POST /api/ssh-servers/{id}/adopt on lab servers', () => {
  it('records two sites as they are, writes nothing, refuses what is not adoptable, sees a hand edit', async () => {
    const s1 = lab.status.servers[0]!;
    const z = zone(s1);
    const { client } = await signedInClient(app);
    const id = await saveLabServer(client, s1, s1.users[0]!);
    const before = await serverFiles(s1);

    const adopted = await client.write('POST', `/api/ssh-servers/${id}/adopt`, {
      serverNames: [`h-proxy.${z}`, `h-tls.${z}`],
    });
    expect(adopted.statusCode, adopted.body).toBe(200);
    const [proxyId, tlsId] = adopted.json().adopted.map((a: { proxyId: string }) => a.proxyId);
    expect(await serverFiles(s1)).toBe(before);

    const proxy = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${proxyId}` })
    ).json();
    const fileText = (await lab.exec(s1.name, ['cat', '/etc/nginx/sites-enabled/h-proxy'])).stdout;
    expect(proxy).toMatchObject({
      domain: `h-proxy.${z}`,
      targetServer: 'http://127.0.0.1:8081',
      status: 'completed',
      sshServerId: id,
      sslConfigured: false,
      nginxConfigPath: '/etc/nginx/sites-enabled/h-proxy',
      adoption: { file: '/etc/nginx/sites-enabled/h-proxy', changedAt: null },
    });
    expect(proxy.adoption.fileText.trimEnd()).toBe(fileText.trimEnd());
    expect(proxy.adoption.fileText).toContain('proxy_pass http://127.0.0.1:8081;');
    const tls = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${tlsId}` })
    ).json();
    expect(tls).toMatchObject({ sslConfigured: true, targetServer: 'http://127.0.0.1:8082' });
    expect(tls.certificateExpiresAt).not.toBeNull();
    // On the list (home): both, without the file's text.
    const list = (
      await client.request({ method: 'GET', url: '/api/user/proxy-configurations' })
    ).json();
    const listed = list.filter((p: { adoption?: unknown }) => p.adoption);
    expect(listed.map((p: { domain: string }) => p.domain).sort()).toEqual(
      [`h-proxy.${z}`, `h-tls.${z}`].sort(),
    );
    expect(listed.every((p: { adoption: object }) => !('fileText' in p.adoption))).toBe(true);

    // Refusals, each named, nothing recorded.
    const refusal = async (serverName: string) => {
      const response = await client.write('POST', `/api/ssh-servers/${id}/adopt`, { serverName });
      return { status: response.statusCode, key: response.json().text?.key };
    };
    expect(await refusal(`h-proxy.${z}`)).toEqual({ status: 409, key: 'sshServer.adoptTaken' });
    expect(await refusal(`h-static.${z}`)).toEqual({ status: 409, key: 'sshServer.adoptNotProxy' });
    expect(await refusal(`h-dup.${z}`)).toEqual({ status: 409, key: 'sshServer.adoptServedTwice' });
    expect(await refusal(`nowhere.${z}`)).toEqual({ status: 404, key: 'sshServer.adoptNotFound' });
    const mixed = await client.write('POST', `/api/ssh-servers/${id}/adopt`, {
      serverNames: [`h-split.${z}`, `h-static.${z}`],
    });
    expect(mixed.statusCode).toBe(409);
    const afterRefusals = (
      await client.request({ method: 'GET', url: '/api/user/proxy-configurations' })
    ).json();
    expect(afterRefusals.some((p: { domain: string }) => p.domain === `h-split.${z}`)).toBe(false);

    // Redeploy and edit refuse to overwrite the hand-written file.
    const redeploy = await client.write('POST', `/api/proxy-configurations/${proxyId}/redeploy`);
    expect(redeploy.statusCode).toBe(409);
    expect(redeploy.json().text).toEqual({
      key: 'errors.proxyAdopted',
      params: { file: '/etc/nginx/sites-enabled/h-proxy' },
    });
    const edit = await client.write('PUT', `/api/user/proxy-configurations/${proxyId}`, {
      domain: `h-proxy.${z}`,
      targetServer: 'http://127.0.0.1:9999',
      serverIp: s1.address,
      sshPort: 22,
      sshUser: 'root',
    });
    expect(edit.statusCode, edit.body).toBe(409);
    expect(await serverFiles(s1)).toBe(before);

    // A hand edit after adoption: the next scan says so, and so does the proxy.
    await lab.exec(s1.name, [
      'bash',
      '-c',
      'echo "# edited by hand" >> /etc/nginx/sites-available/h-proxy',
    ]);
    const scan = (await client.write('POST', `/api/ssh-servers/${id}/scan`)).json();
    const site = (name: string) =>
      scan.sites.find((s: { serverName: string }) => s.serverName === name);
    expect(site(`h-proxy.${z}`)).toMatchObject({
      class: 'adopted',
      proxyId,
      changedSinceAdoption: true,
    });
    expect(site(`h-tls.${z}`)).toMatchObject({ class: 'adopted', changedSinceAdoption: false });
    const changed = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${proxyId}` })
    ).json();
    expect(changed.adoption.changedAt).not.toBeNull();

    // Delete forgets Portico's record only: the file stays as it is.
    const filesNow = await serverFiles(s1);
    const removed = await client.write('DELETE', `/api/proxy-configurations/${proxyId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().removedFromServer).toBe(false);
    expect(await serverFiles(s1)).toBe(filesNow);
  });
});
