// "Sites on this server" on real lab servers (testbed/): s1 carries hand-written sites (a plain
// proxy, a static site, a site split over an include, one block with two names, a TLS site made
// by `certbot --nginx` with a live certificate from the lab's Pebble, one name served twice); s2's
// configuration fails nginx -t (edited, never reloaded).
// Every file and directory under /etc/nginx and /etc/letsencrypt is compared before and after:
// a scan writes nothing. The describes run in order on the one lab: the conversion takes over
// the TLS site the adoption test adopted (`adopter`); the last case, an admin's "Delete with sites"
// of another user's server, adopts what the owner's case left behind.

import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { namedClient } from '../../../test/support/admin-test-helpers';
import { httpGet, httpsGet } from '../../../test/support/lab-helpers';
import { inProcessLabApp } from '../../../test/support/lab-in-process-app';
import { serverFiles as labServerFiles } from '../../../test/support/lab-server-files';
import { waitForStatus } from '../../../test/support/proxies-test-helpers';
import { runEnded } from '../../../test/support/server-run-helpers';
import {
  saveLabServer,
  signedInClient,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';
import { auditLog } from '../../db/schema';

let lab: TLab;
let portico: TTestApp;
let app: TTestApp['app'];
/** Who adopted the TLS site in the adoption test, for the conversion test. */
let adopter:
  | {
      client: Awaited<ReturnType<typeof signedInClient>>['client'];
      serverId: string;
      tlsId: string;
    }
  | undefined;

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
    adopter = { client, serverId: id, tlsId };
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

/** The audit trail's failed conversions of a proxy, oldest first: each one's changes. */
async function failures(id: string) {
  const entries = await portico.database.db
    .select({ changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'proxy.convert_failed'), eq(auditLog.targetId, id)))
    .orderBy(auditLog.id);
  return entries.map((e) => e.changes);
}

/** Every entry under /etc/nginx (type, path, mode, link target) and every file's sha256. */
async function nginxContent(server: TLabServer): Promise<string> {
  const script =
    "find /etc/nginx -printf '%y %p %m %l\\n' | sort; find /etc/nginx -type f -exec sha256sum {} + | sort";
  return (await lab.exec(server.name, ['bash', '-c', script])).stdout;
}

/** A site as a visitor sees it, asked from the test host: status, Location, body, certificate. */
function answerOver(address: string, domain: string, tls: boolean) {
  if (!tls) {
    return httpGet(address, domain).then((a) => ({
      status: a.status,
      location: a.headers.location ?? null,
      body: a.body,
      certificate: null,
    }));
  }
  return new Promise<{
    status: number;
    location: string | null;
    body: string;
    certificate: string | null;
  }>((resolve, reject) => {
    const request = https.get(
      {
        host: address,
        servername: domain,
        headers: { host: domain },
        path: '/',
        agent: false,
        rejectUnauthorized: false,
      },
      (response) => {
        const certificate = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            body,
            certificate,
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

describe("Convert to Portico's configuration on lab servers", () => {
  it('plans, refuses what it must, converts the TLS site keeping its certificate; every site answers as before', async () => {
    const s1 = lab.status.servers[0]!;
    const z = zone(s1);
    expect(adopter, 'the adoption test adopted the TLS site').toBeDefined();
    const { client, serverId, tlsId } = adopter!;
    const sites: [string, boolean][] = [
      [`h-proxy.${z}`, false],
      [`h-static.${z}`, false],
      [`h-split.${z}`, false],
      [`h-two-a.${z}`, false],
      [`h-two-b.${z}`, false],
      [`h-tls.${z}`, true],
      [`h-tls.${z}`, false],
    ];
    const answers = () =>
      Promise.all(sites.map(([domain, tls]) => answerOver(s1.address, domain, tls)));
    const before = await answers();
    // The proxies' upstreams answer through nginx: a body to compare, not an error page.
    expect(before[0]).toMatchObject({ status: 200, body: `upstream 8081 on ${s1.name}\n` });
    expect(before[5]).toMatchObject({ status: 200, body: `upstream 8082 on ${s1.name}\n` });
    expect(before[6]).toMatchObject({ status: 301, location: `https://h-tls.${z}/` });
    // certbot --nginx made the TLS site with a live certificate: it chains to Pebble's root.
    expect((await httpsGet(lab.status, s1.address, `h-tls.${z}`)).issuer).toMatch(/Pebble/);

    // Two more adopted as they are (one of them shares its file with another name).
    const adopted = await client.write('POST', `/api/ssh-servers/${serverId}/adopt`, {
      serverNames: [`h-split.${z}`, `h-two-a.${z}`],
    });
    expect(adopted.statusCode, adopted.body).toBe(200);
    const twoId = adopted.json().adopted[1].proxyId as string;
    const files = await serverFiles(s1);

    // Redeploy all (a background run) refuses each adopted site by name, starts nothing, writes nothing.
    const all = await client.write('POST', `/api/ssh-servers/${serverId}/redeploy-all`);
    expect(all.statusCode, all.body).toBe(202);
    const ended = await runEnded(client, serverId, all.json().id);
    expect(ended).toMatchObject({ state: 'done', done: 0, failed: 0, refused: 3, total: 3 });
    const refusals = ended.results
      .map(
        (r: {
          domain: string;
          outcome: string;
          deploymentId: string | null;
          text: { key: string } | null;
        }) => [r.domain, r.outcome, r.deploymentId, r.text?.key],
      )
      .sort();
    expect(refusals).toEqual(
      [`h-split.${z}`, `h-tls.${z}`, `h-two-a.${z}`]
        .sort()
        .map((domain) => [domain, 'refused', null, 'errors.proxyAdopted']),
    );
    expect(await serverFiles(s1)).toBe(files);

    // The plan: the hand-written file and its link go, Portico's file and link come, nothing written.
    const planned = await client.write('POST', `/api/proxy-configurations/${tlsId}/convert/plan`);
    expect(planned.statusCode, planned.body).toBe(200);
    const plan = planned.json();
    const portico = `/etc/nginx/sites-available/proxy-h-tls.${z}`;
    expect(plan).toMatchObject({
      certificate: 'keep',
      changes: true,
      adoptedFile: '/etc/nginx/sites-enabled/h-tls',
    });
    const change = (path: string) => plan.files.find((f: { path: string }) => f.path === path);
    expect(change('/etc/nginx/sites-enabled/h-tls')).toMatchObject({
      kind: 'link',
      change: 'remove',
      diff: expect.stringContaining('--> /etc/nginx/sites-available/h-tls'),
    });
    expect(change('/etc/nginx/sites-available/h-tls')).toMatchObject({ change: 'remove' });
    expect(change('/etc/nginx/sites-available/h-tls').diff).toContain(
      '-    listen 443 ssl; # managed by Certbot',
    );
    expect(change(portico)).toMatchObject({ change: 'create' });
    expect(change(portico).diff).toContain(
      `+    ssl_certificate /etc/letsencrypt/live/h-tls.${z}/fullchain.pem;`,
    );
    expect(change(`/etc/nginx/sites-enabled/proxy-h-tls.${z}`)).toMatchObject({
      kind: 'link',
      change: 'create',
    });
    expect(await serverFiles(s1)).toBe(files);

    // A file that serves another name too is not converted: that site would go with it.
    const shared = await client.write('POST', `/api/proxy-configurations/${twoId}/convert/plan`);
    expect(shared.statusCode).toBe(502);
    expect(shared.json().text.key).toBe('errors.convertFailed');
    expect(shared.json().message).toContain(`also serves h-two-b.${z}`);

    // Changed since the plan (a file Portico would write appeared): refused, nothing written.
    const tuning = '/etc/nginx/conf.d/portico-server-names.conf';
    await lab.exec(s1.name, ['bash', '-c', `echo '# by hand' > ${tuning}`]);
    const stale = await client.write('POST', `/api/proxy-configurations/${tlsId}/convert`, {
      fingerprint: plan.fingerprint,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'server_changed' });
    expect(stale.json().message).toContain('changed since the plan');
    await lab.exec(s1.name, ['rm', '-f', tuning]);
    // Changed since adoption (edited by hand): refused, nothing written.
    const original = (await lab.exec(s1.name, ['cat', '/etc/nginx/sites-available/h-tls'])).stdout;
    await lab.exec(s1.name, ['bash', '-c', 'echo "# edited" >> /etc/nginx/sites-available/h-tls']);
    const edited = await client.write('POST', `/api/proxy-configurations/${tlsId}/convert`, {
      fingerprint: plan.fingerprint,
    });
    expect(edited.statusCode).toBe(409);
    expect(edited.json().message).toContain('edited by hand');
    await lab.exec(s1.name, ['bash', '-c', 'cat > /etc/nginx/sites-available/h-tls'], original);
    expect(await answers()).toEqual(before);

    // Converted as planned.
    const converted = await client.write('POST', `/api/proxy-configurations/${tlsId}/convert`, {
      fingerprint: plan.fingerprint,
    });
    expect(converted.statusCode, converted.body).toBe(200);
    expect(converted.json()).toMatchObject({ converted: true, nginxConfigPath: portico });
    const listing = (
      await lab.exec(s1.name, ['ls', '/etc/nginx/sites-enabled', '/etc/nginx/sites-available'])
    ).stdout;
    expect(listing).not.toMatch(/^h-tls$/m);
    const written = (await lab.exec(s1.name, ['cat', portico])).stdout;
    const plannedLines = change(portico)
      .diff.split('\n')
      .filter((l: string) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l: string) => l.slice(1));
    expect(written.trimEnd().split('\n')).toEqual(plannedLines);
    expect(
      (
        await lab.exec(s1.name, ['readlink', `/etc/nginx/sites-enabled/proxy-h-tls.${z}`])
      ).stdout.trim(),
    ).toBe(portico);
    // The certificate's files are as they were.
    expect(
      await serverFiles(s1).then((f) =>
        f.split('\n').filter((l) => l.includes('/etc/letsencrypt')),
      ),
    ).toEqual(files.split('\n').filter((l) => l.includes('/etc/letsencrypt')));

    // Every site answers exactly as before, asked from outside: status, redirect, body, certificate.
    expect(await answers()).toEqual(before);

    // An ordinary Portico proxy now.
    const proxy = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${tlsId}` })
    ).json();
    expect(proxy).toMatchObject({
      status: 'completed',
      sslConfigured: true,
      nginxConfigPath: portico,
    });
    expect(proxy.adoption ?? null).toBeNull();
    const again = await client.write('POST', `/api/proxy-configurations/${tlsId}/convert/plan`);
    expect(again.statusCode).toBe(409);
    expect(again.json().text.key).toBe('errors.proxyNotAdopted');
    const edit = await client.write('PUT', `/api/user/proxy-configurations/${tlsId}`, {
      domain: `h-tls.${z}`,
      targetServer: 'http://127.0.0.1:8082',
      serverIp: s1.address,
      sshPort: 22,
      sshUser: 'root',
    });
    expect(edit.statusCode, edit.body).toBe(200);

    // Redeployed as any Portico proxy: Portico's verify step trusts the certificate certbot --nginx
    // got from the lab's Pebble, and the site answers as before, over a chain to Pebble's root.
    const redeployed = await client.write('POST', `/api/proxy-configurations/${tlsId}/redeploy`);
    expect(redeployed.statusCode, redeployed.body).toBe(202);
    const ran = await waitForStatus(client, tlsId, (status) => status !== 'deploying');
    expect(ran, JSON.stringify(ran)).toMatchObject({ status: 'completed', sslConfigured: true });
    const served = await httpsGet(lab.status, s1.address, `h-tls.${z}`);
    expect(served).toMatchObject({ status: 200, body: before[5]!.body });
    expect(served.issuer).toMatch(/Pebble/);
    expect(await answers()).toEqual(before);

    // A site that would not answer the same afterwards is put back: h-split's snippet (no part
    // of the adopted file, so no part of its hash) now answers by itself, not from its upstream.
    await lab.exec(s1.name, [
      'bash',
      '-c',
      `printf 'location / { return 200 "by hand\\n"; }\n' > /etc/nginx/snippets/h-split-proxy.conf && nginx -s reload`,
    ]);
    await expect
      .poll(async () => (await answerOver(s1.address, `h-split.${z}`, false)).body)
      .toBe('by hand\n');
    const splitId = adopted.json().adopted[0].proxyId as string;
    const content = () => nginxContent(s1);
    const splitBefore = await content();
    const splitPlan = (
      await client.write('POST', `/api/proxy-configurations/${splitId}/convert/plan`)
    ).json();
    expect(
      splitPlan.files.map((f: { path: string; change: string }) => [f.path, f.change]),
    ).toEqual([
      ['/etc/nginx/conf.d/h-split.conf', 'remove'],
      [`/etc/nginx/sites-available/proxy-h-split.${z}`, 'create'],
      [`/etc/nginx/sites-enabled/proxy-h-split.${z}`, 'create'],
    ]);
    const refused = await client.write('POST', `/api/proxy-configurations/${splitId}/convert`, {
      fingerprint: splitPlan.fingerprint,
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('stopped answering as before');
    expect(await content()).toBe(splitBefore);
    expect((await answerOver(s1.address, `h-split.${z}`, false)).body).toBe('by hand\n');
    const split = (
      await client.request({ method: 'GET', url: `/api/proxy-configurations/${splitId}` })
    ).json();
    expect(split.adoption.file).toBe('/etc/nginx/conf.d/h-split.conf');
    // Each failed conversion is in the audit trail with what became of the server.
    expect(await failures(splitId)).toEqual([
      [{ field: 'outcome', before: null, after: 'rolled_back' }],
    ]);
    // The two refused after the plan (changed since it, edited since adoption): nothing written.
    expect(await failures(tlsId)).toEqual([
      [{ field: 'outcome', before: null, after: 'refused' }],
      [{ field: 'outcome', before: null, after: 'refused' }],
    ]);

    // A change nginx's gate never sees (a regular file where Portico's link goes) is put back
    // whole, the hand-written site's link made again as the link it was.
    const blocker = `/etc/nginx/sites-enabled/proxy-h-proxy.${z}`;
    await lab.exec(s1.name, ['bash', '-c', `: > ${blocker}`]);
    const proxyAdopted = await client.write('POST', `/api/ssh-servers/${serverId}/adopt`, {
      serverName: `h-proxy.${z}`,
    });
    expect(proxyAdopted.statusCode, proxyAdopted.body).toBe(200);
    const proxyId = proxyAdopted.json().adopted[0].proxyId as string;
    const proxyPlan = (
      await client.write('POST', `/api/proxy-configurations/${proxyId}/convert/plan`)
    ).json();
    const linkBefore = await content();
    expect(linkBefore).toContain(
      'l /etc/nginx/sites-enabled/h-proxy 777 /etc/nginx/sites-available/h-proxy',
    );
    const blocked = await client.write('POST', `/api/proxy-configurations/${proxyId}/convert`, {
      fingerprint: proxyPlan.fingerprint,
    });
    expect(blocked.statusCode).toBe(502);
    expect(blocked.json().message).toContain(blocker);
    expect(await content()).toBe(linkBefore);
    expect(await failures(proxyId)).toEqual([
      [{ field: 'outcome', before: null, after: 'rolled_back' }],
    ]);
    await lab.exec(s1.name, ['rm', '-f', blocker]);
    expect(await answerOver(s1.address, `h-proxy.${z}`, false)).toEqual(before[0]);
  });
});

describe('Check now and Delete with sites on a server holding adopted sites', () => {
  it('a scan and Check now see a gone file, Check now a hand edit, and write nothing; Delete with sites forgets the adopted ones and leaves their files', async () => {
    const s1 = lab.status.servers[0]!;
    const z = zone(s1);
    expect(adopter, 'the adoption test adopted the TLS site').toBeDefined();
    const { client, serverId } = adopter!;
    const list = (
      await client.request({ method: 'GET', url: '/api/user/proxy-configurations' })
    ).json() as { id: string; domain: string }[];
    const idOf = (domain: string) => list.find((p) => p.domain === domain)!.id;
    const proxy = async (domain: string) =>
      (
        await client.request({ method: 'GET', url: `/api/proxy-configurations/${idOf(domain)}` })
      ).json();

    // A scan that no longer finds an adopted file marks it gone as Check now does, and clears
    // that once the file is back; the scan writes nothing on the server.
    const two = '/etc/nginx/sites-enabled/h-two';
    const twoText = (await lab.exec(s1.name, ['cat', two])).stdout;
    const scan = async () => {
      const scanned = await client.write('POST', `/api/ssh-servers/${serverId}/scan`);
      expect(scanned.statusCode, scanned.body).toBe(200);
    };
    await lab.exec(s1.name, ['rm', two]);
    const withoutTwo = await serverFiles(s1);
    await scan();
    expect(await serverFiles(s1)).toBe(withoutTwo);
    expect((await proxy(`h-two-a.${z}`)).adoption).toMatchObject({
      missingAt: expect.any(String),
      changedAt: null,
    });
    expect((await proxy(`h-proxy.${z}`)).adoption).toMatchObject({ missingAt: null });
    await lab.exec(s1.name, ['bash', '-c', `cat > ${two}`], twoText);
    await scan();
    expect((await proxy(`h-two-a.${z}`)).adoption).toMatchObject({
      missingAt: null,
      changedAt: null,
    });

    // By hand: one adopted file edited, another one gone.
    await lab.exec(s1.name, ['bash', '-c', 'echo "# by hand" >> /etc/nginx/conf.d/h-split.conf']);
    await lab.exec(s1.name, ['rm', '/etc/nginx/sites-enabled/h-two']);
    const files = await serverFiles(s1);
    const checked = await client.write('POST', `/api/ssh-servers/${serverId}/check`);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(await serverFiles(s1)).toBe(files);
    expect((await proxy(`h-split.${z}`)).adoption).toMatchObject({
      changedAt: expect.any(String),
      missingAt: null,
    });
    expect((await proxy(`h-two-a.${z}`)).adoption).toMatchObject({
      missingAt: expect.any(String),
    });
    expect((await proxy(`h-proxy.${z}`)).adoption).toMatchObject({
      changedAt: null,
      missingAt: null,
    });

    // Delete with sites: the converted site is removed as Portico's; the adopted ones are only
    // forgotten, their files as they were, entry by entry.
    const porticoLines = (text: string) =>
      text
        .split('\n')
        .filter(
          (l) =>
            !l.includes('proxy-h-tls') && !/^d \/etc\/nginx\/sites-(available|enabled) /.test(l),
        )
        .join('\n');
    const before = porticoLines(await nginxContent(s1));
    const deleted = await client.write('POST', `/api/ssh-servers/${serverId}/delete-with-sites`, {
      removeCertificates: false,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().deleted).toBe(true);
    expect(deleted.json().results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    const after = await nginxContent(s1);
    expect(after).not.toContain('proxy-h-tls');
    expect(porticoLines(after)).toBe(before);
    expect(after).toContain('/etc/nginx/conf.d/h-split.conf');
    expect(after).toContain(
      'l /etc/nginx/sites-enabled/h-proxy 777 /etc/nginx/sites-available/h-proxy',
    );
    const left = (
      await client.request({ method: 'GET', url: '/api/user/proxy-configurations' })
    ).json();
    expect(left).toEqual([]);
  });

  it("an admin's Delete with sites on another user's server forgets the adopted ones and leaves every file as it was", async () => {
    const s1 = lab.status.servers[0]!;
    const z = zone(s1);
    // The TLS site again, written by hand as certbot leaves one, over the certificate the
    // conversion kept: its certbot files are what "remove certificates" would take.
    const tls = `h-tls.${z}`;
    const live = `/etc/letsencrypt/live/${tls}`;
    const site = [
      'server {',
      `    server_name ${tls};`,
      '    location / { proxy_pass http://127.0.0.1:8082; }',
      '    listen 443 ssl;',
      `    ssl_certificate ${live}/fullchain.pem;`,
      `    ssl_certificate_key ${live}/privkey.pem;`,
      '}',
      '',
    ].join('\n');
    const written = await lab.exec(
      s1.name,
      [
        'bash',
        '-c',
        `test -e ${live}/fullchain.pem && cat > /etc/nginx/sites-enabled/h-tls && nginx -t -q && nginx -s reload`,
      ],
      site,
    );
    expect(written.code, written.stderr).toBe(0);
    const sites: [string, boolean][] = [
      [`h-proxy.${z}`, false],
      [tls, true],
    ];
    await expect
      .poll(async () => (await answerOver(s1.address, tls, true)).body)
      .toBe(`upstream 8082 on ${s1.name}\n`);
    const owner = await namedClient(portico, 'own');
    const admin = await namedClient(portico, 'adm', 'admin');
    const serverId = await saveLabServer(owner.client, s1, s1.users[0]!);
    const adopted = await owner.client.write('POST', `/api/ssh-servers/${serverId}/adopt`, {
      serverNames: sites.map(([domain]) => domain),
    });
    expect(adopted.statusCode, adopted.body).toBe(200);
    const proxyIds = adopted.json().adopted.map((a: { proxyId: string }) => a.proxyId);
    expect(proxyIds).toHaveLength(2);
    const answers = () =>
      Promise.all(sites.map(([domain, https]) => answerOver(s1.address, domain, https)));
    const files = await serverFiles(s1);
    const answered = await answers();

    // Certificates too: an adopted site's certificate is the user's as much as its file.
    expect(files).toContain(`${live}/fullchain.pem`);
    const deleted = await admin.client.write(
      'POST',
      `/api/ssh-servers/${serverId}/delete-with-sites`,
      { removeCertificates: true },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().deleted).toBe(true);
    expect(
      deleted
        .json()
        .results.map((r: { id: string; ok: boolean }) => [r.id, r.ok])
        .sort(),
    ).toEqual(proxyIds.map((id: string) => [id, true]).sort());
    expect(await serverFiles(s1)).toBe(files);
    expect(await answers()).toEqual(answered);

    // The owner's proxies and server are gone from Portico.
    for (const id of proxyIds) {
      const read = await owner.client.request({
        method: 'GET',
        url: `/api/proxy-configurations/${id}`,
      });
      expect(read.statusCode).toBe(404);
    }
    const server = await owner.client.request({
      method: 'GET',
      url: `/api/ssh-servers/${serverId}`,
    });
    expect(server.statusCode).toBe(404);
    const servers = await owner.client.request({ method: 'GET', url: '/api/ssh-servers' });
    expect(servers.json().servers).toEqual([]);
  });
});
