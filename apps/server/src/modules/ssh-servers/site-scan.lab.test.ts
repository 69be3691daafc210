// "Sites on this server" on real lab servers (testbed/): s1 carries hand-written sites (a plain
// proxy, a static site, a site split over an include, one block with two names, a certbot-style
// TLS site, one name served twice); s2's configuration fails nginx -t (edited, never reloaded).
// Every file and directory under /etc/nginx and /etc/letsencrypt is compared before and after:
// a scan writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
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

/** Every entry's type, path, mode, size and mtime, and every regular file's sha256. */
async function serverFiles(server: TLabServer): Promise<string> {
  const script = [
    "find /etc/nginx /etc/letsencrypt -printf '%y %p %m %s %T@ %l\\n' | sort",
    'find /etc/nginx /etc/letsencrypt -type f -exec sha256sum {} + | sort',
  ].join('; ');
  const result = await lab.exec(server.name, ['bash', '-c', script]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

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
