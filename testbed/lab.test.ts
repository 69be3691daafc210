// The lab itself, end to end: two servers up, SSH, DNS, a certificate from Pebble, HTTPS to the
// upstream, two deployments at once, and a teardown that leaves the machine as it was.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab } from './src/lab';
import { LAB_HOST_ADDRESS, labNames } from './src/names';
import { resolveA } from './src/probe';
import { waitFor } from './src/run';
import type { TLabServer } from './src/types';
import { deploySite, httpsViaLab, sshTarget, websocketEcho } from './test-support/deploy';
import { labLeftovers, labPids, snapshotGuardedPaths } from './test-support/machine';
import { sshExec, sshSudo } from './test-support/ssh';

let lab: TLab;
let before: Record<string, string>;
const server = (name: string): TLabServer => {
  const found = lab.status.servers.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
};

beforeAll(async () => {
  before = snapshotGuardedPaths();
  lab = await startLab({ servers: 2 });
});

afterAll(async () => {
  await lab?.stop();
});

describe('a lab of two servers', () => {
  it('describes each server with its own address, host key and domains', () => {
    const [s1, s2] = lab.status.servers;
    expect(lab.status.servers.map((s) => s.name)).toEqual(['s1', 's2']);
    expect(s1?.address).not.toBe(s2?.address);
    expect(s1?.hostKeyFingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(s1?.hostKeyFingerprint).not.toBe(s2?.hostKeyFingerprint);
    expect(s1?.users.map((u) => [u.name, u.sudo])).toEqual([
      ['root', false],
      ['deploy', true],
    ]);
    expect(lab.status.domains['site1.s1.portico.test']).toBe(s1?.address);
    expect(lab.status.acmeDirectoryUrl).toMatch(/^https:\/\/198\.18\.\d+\.2:14000\/dir$/);
  });

  it('accepts SSH password logins as root and as deploy, whose sudo works', async () => {
    const s1 = server('s1');
    const asRoot = await sshExec(sshTarget(s1, 'root'), 'id -u; hostname');
    expect(asRoot).toMatchObject({ code: 0, stdout: `0\n${s1.hostname}\n` });
    const asDeploy = await sshExec(sshTarget(s1, 'deploy'), 'id -un; id -u');
    expect(asDeploy.stdout).toMatch(/^deploy\n[1-9]\d*\n$/);
    const sudo = await sshSudo(sshTarget(s1, 'deploy'), 'id -u\n');
    expect(sudo).toMatchObject({ code: 0, stdout: '0\n' });
    const wrong = { ...sshTarget(s1, 'deploy'), password: 'not-the-password' };
    await expect(sshExec(wrong, 'true')).rejects.toThrow(/authentication/i);
  });

  it('keeps each server inside the lab: no default route, no way to the host', async () => {
    const routes = await lab.exec('s1', ['ip', 'route', 'show']);
    expect(routes.stdout).not.toMatch(/default/);
    // Decided by the routing table alone: no packet is sent.
    const beyond = await lab.exec('s1', ['ip', 'route', 'get', '192.0.2.1']);
    expect(beyond.code).not.toBe(0);
    expect(beyond.stderr).toMatch(/unreachable/i);

    // A service on the host listening on every address is still out of the lab's reach.
    const connections: string[] = [];
    const listener = net.createServer((socket) => {
      connections.push(String(socket.remoteAddress));
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
    try {
      const { port } = listener.address() as net.AddressInfo;
      const host = labNames(lab.status.id).hostAddress;
      const connect = ['bash', '-c', 'exec 3<>"/dev/tcp/$0/$1"', host, String(port)];
      const attempt = await lab.exec('s1', connect);
      expect(attempt.code).not.toBe(0);
      expect(attempt.stderr).toMatch(/unreachable/i);
      expect(connections).toEqual([]);
    } finally {
      listener.close();
    }

    // Inside the lab, machines reach each other.
    const upstream = `http://${lab.status.upstream.address}:${lab.status.upstream.port}/`;
    const viaLab = await lab.exec('s1', ['curl', '-sS', '--max-time', '5', upstream]);
    expect(JSON.parse(viaLab.stdout)).toMatchObject({ upstream: lab.status.upstream.name });
    const neighbour = await lab.exec('s1', [
      'curl',
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `http://${server('s2').address}/`,
    ]);
    expect(neighbour.stdout).toBe('200');
  });

  it('answers lab domains over DNS and can point one at another server', async () => {
    const [s1, s2] = [server('s1'), server('s2')];
    const dns = lab.status.dnsServer;
    expect(await resolveA(dns, 'site1.s1.portico.test')).toEqual([s1.address]);
    expect(await resolveA(dns, 'www.site1.s2.portico.test')).toEqual([s2.address]);
    expect(await resolveA(dns, 'nothing.portico.test')).toEqual([]);
    const inside = await lab.exec('s1', ['getent', 'hosts', 'site2.s2.portico.test']);
    expect(inside.stdout).toContain(s2.address);

    await lab.point('site2.s1.portico.test', 's2');
    expect(await resolveA(dns, 'site2.s1.portico.test')).toEqual([s2.address]);
    await lab.point('site2.s1.portico.test', 's1');
    expect(await resolveA(dns, 'site2.s1.portico.test')).toEqual([s1.address]);
  });

  it('issues a certificate from Pebble and serves the upstream over verified HTTPS', async () => {
    const s1 = server('s1');
    const domain = 'site1.s1.portico.test';
    const deployed = await deploySite(lab.status, s1, domain);
    expect(deployed.code, deployed.stderr).toBe(0);

    let echo: Awaited<ReturnType<typeof httpsViaLab>> | undefined;
    await waitFor(
      async () => {
        echo = await httpsViaLab(lab.status, s1, domain).catch(() => undefined);
        return echo !== undefined;
      },
      10_000,
      () => `https://${domain} did not answer`,
    );
    expect(echo).toEqual({
      ...echo,
      upstream: lab.status.upstream.name,
      host: domain,
      xForwardedProto: 'https',
      xForwardedFor: LAB_HOST_ADDRESS,
    });
    expect(await websocketEcho(lab.status, s1, domain, 'hello through nginx')).toBe(
      'hello through nginx',
    );
  });

  it('keeps two servers deploying at once separate', async () => {
    const [s1, s2] = [server('s1'), server('s2')];
    const results = await Promise.all([
      deploySite(lab.status, s1, 'site2.s1.portico.test'),
      deploySite(lab.status, s2, 'site1.s2.portico.test'),
    ]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    const list = 'ls /etc/nginx/sites-enabled /etc/letsencrypt/live | grep portico\n';
    const [seen1, seen2] = await Promise.all([
      sshSudo(sshTarget(s1, 'deploy'), list),
      sshSudo(sshTarget(s2, 'deploy'), list),
    ]);
    expect(seen1.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'proxy-site1.s1.portico.test',
      'proxy-site2.s1.portico.test',
      'site1.s1.portico.test',
      'site2.s1.portico.test',
    ]);
    expect(seen2.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'proxy-site1.s2.portico.test',
      'site1.s2.portico.test',
    ]);
    const echo = await httpsViaLab(lab.status, s2, 'site1.s2.portico.test');
    expect(echo.host).toBe('site1.s2.portico.test');
    expect(snapshotGuardedPaths()).toEqual(before);
  });

  it('comes down leaving the machine as it was, and down is safe twice', async () => {
    const pids = await labPids(lab.status.id);
    expect(pids.length).toBeGreaterThan(0);
    await lab.stop();
    await lab.stop();
    expect(await labLeftovers(lab.status.id, pids)).toEqual({
      netns: [],
      links: [],
      mounts: [],
      processes: [],
      files: [],
    });
    expect(snapshotGuardedPaths()).toEqual(before);
  });
});
