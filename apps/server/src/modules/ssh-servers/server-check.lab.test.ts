// "Check now" on real lab servers (testbed/): each fact the check stores is compared with what
// the server really has, read independently inside the server. s1 is a stock server (nginx
// running on port 80, no scheduler running); s2 has cron running and another program on port
// 80 (nginx not started). root logs in directly; `deploy` reaches root through a sudo that
// asks for its password. Each check leaves the server's files as they were, apt's too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import { serverFiles, WATCHED_DIRS } from '../../../test/support/lab-server-files';
import {
  saveLabServer,
  signedInClient,
  testSecretKeyFile,
} from '../../../test/support/ssh-test-fixtures';
import { buildTestApp, TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { createTestDatabase } from '../../../test/support/test-database';
import type { TDatabase } from '../../db/client';

let lab: TLab;
let database: TDatabase;
let app: Awaited<ReturnType<typeof buildTestApp>>;
const keyFile = testSecretKeyFile();

beforeAll(async () => {
  lab = await startLab({ servers: 2, variants: { s2: ['cron-running', 'port80-busy'] } });
  // As a stock Debian has it (the lab's image keeps apt's binary cache off): apt-cache run as
  // root would write /var/cache/apt/*.bin, which the facts read must not.
  for (const server of lab.status.servers) {
    await lab.exec(server.name, [
      'bash',
      '-c',
      `printf 'Dir::Cache::pkgcache "pkgcache.bin";\nDir::Cache::srcpkgcache "srcpkgcache.bin";\n' > /etc/apt/apt.conf.d/zz-portico-lab-cache; rm -f /var/cache/apt/*.bin`,
    ]);
  }
  database = (await createTestDatabase('pglite')).database;
  app = await buildTestApp({
    ...TEST_APP_OPTIONS,
    database,
    config: { ...TEST_APP_OPTIONS.config, secretKeyFile: keyFile },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  await lab?.stop();
});

/** What the server really has, read by the test inside it (not through Portico). */
async function truth(server: TLabServer) {
  const sh = async (script: string) =>
    (await lab.exec(server.name, ['bash', '-c', script])).stdout.trim();
  const osRelease = await sh('cat /etc/os-release');
  const field = (key: string) =>
    new RegExp(`^${key}="?([^"\\n]*)"?$`, 'm').exec(osRelease)?.[1] ?? null;
  const listener = async (port: number) => {
    const line = await sh(`ss -Hltnp 'sport = :${port}'`);
    return {
      port,
      listening: line !== '',
      program: /users:\(\("([^"]+)"/.exec(line)?.[1] ?? null,
    };
  };
  return {
    os: { id: field('ID'), version: field('VERSION_ID'), name: field('PRETTY_NAME') },
    nginxVersion: /nginx\/([0-9.]+)/.exec(await sh('nginx -v 2>&1'))?.[1] ?? null,
    nginxRunning: (await sh('pgrep -x nginx >/dev/null && echo yes || echo no')) === 'yes',
    certbotVersion: /^certbot (\S+)/.exec(await sh('certbot --version 2>&1'))?.[1] ?? null,
    renewal:
      (await sh('pgrep -x cron >/dev/null && grep -qs certbot /etc/cron.d/* && echo y')) === 'y'
        ? 'cron'
        : 'none',
    ports: [await listener(80), await listener(443)],
    diskFreeKb: Number(await sh("df -Pk / | awk 'NR==2 {print $4}'")),
    dnsPlugins: {
      installed: (
        await sh("dpkg -l 'python3-certbot-dns-*' 2>/dev/null | awk '/^ii/ {print $2}' | sort")
      )
        .split('\n')
        .filter(Boolean),
      offered: (
        await sh(
          'apt-cache -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= pkgnames python3-certbot-dns- | sort',
        )
      )
        .split('\n')
        .filter(Boolean),
    },
  };
}

/** What apt's cache directory holds at its top (its binary caches), and apt's index. */
const APT_DIRS = [...WATCHED_DIRS, '/var/lib/apt/lists'];
const aptCache = async (server: TLabServer) =>
  (
    await lab.exec(server.name, [
      'bash',
      '-c',
      "find /var/cache/apt -maxdepth 1 -printf '%p %s %T@\\n' | sort",
    ])
  ).stdout;

describe('POST /api/ssh-servers/{id}/check on lab servers', () => {
  it('stores each fact as the server really has it, for root and a sudo user', async () => {
    const { client } = await signedInClient(app);
    for (const server of lab.status.servers) {
      const real = await truth(server);
      expect(real.nginxVersion).not.toBeNull();
      for (const user of server.users) {
        const id = await saveLabServer(client, server, user);
        const before = await serverFiles(lab, server, APT_DIRS);
        const cacheBefore = await aptCache(server);
        const response = await client.write('POST', `/api/ssh-servers/${id}/check`);
        expect(response.statusCode, response.body).toBe(200);
        // "Check now" reads: nginx's, certbot's and cron's files are as they were, /tmp holds the
        // same, and asking apt which DNS plugins it offers left its index and caches alone.
        expect(await serverFiles(lab, server, APT_DIRS)).toBe(before);
        expect(await aptCache(server)).toBe(cacheBefore);
        const { server: checked, text } = response.json();
        expect(text).toBeNull();
        expect(checked.reachable).toBe(true);
        expect(checked.hostKeyFingerprint).toBe(server.hostKeyFingerprint);
        const facts = checked.facts;
        expect(facts.os).toEqual(real.os);
        // The lab's servers run no init system of their own: no systemd, init scripts only.
        expect(facts.initSystem).toBe('sysvinit');
        expect(facts.rootAccess).toBe(user.sudo ? 'sudo_password' : 'root');
        expect(facts.nginx).toEqual({ version: real.nginxVersion, running: real.nginxRunning });
        expect(facts.certbot).toEqual({ version: real.certbotVersion });
        expect(facts.renewal).toBe(real.renewal);
        // Who holds a port is only seen as root; a user whose sudo asks a password sees it held.
        expect(facts.ports).toEqual(
          user.sudo ? real.ports.map((p) => ({ ...p, program: null })) : real.ports,
        );
        expect(Math.abs(facts.diskFreeBytes / 1024 - real.diskFreeKb)).toBeLessThan(256 * 1024);
        // certbot's DNS plugins: those dpkg has installed, and every one apt's index offers.
        expect(real.dnsPlugins.offered).toContain('python3-certbot-dns-route53');
        expect(facts.dnsPlugins).toEqual({
          installed: real.dnsPlugins.installed,
          offered: [...new Set([...real.dnsPlugins.offered, ...real.dnsPlugins.installed])].sort(),
        });
      }
    }
  });

  it('tells the two lab servers apart where they differ', async () => {
    const [s1, s2] = await Promise.all(lab.status.servers.map((s) => truth(s)));
    expect(s1!.ports[0]).toMatchObject({ listening: true, program: 'nginx' });
    expect(s2!.ports[0]).toMatchObject({ listening: true, program: 'python3' });
    expect(s1!.nginxRunning).toBe(true);
    expect(s2!.nginxRunning).toBe(false);
  });
});
