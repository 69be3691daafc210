// A proxy's options on a lab server over HTTPS (Pebble): upstream groups and failover, a
// location's own upstream, HSTS, WebSocket, basic auth, a denied address with the ACME path
// still answering, and a redirect host (docs/PRODUCT.md#proxy-options).
import type { TProxyOptions } from '@portico/shared/proxy/options';
import { describe, expect, it } from 'vitest';
import {
  captureLog,
  deployInput,
  engineContext,
  httpGet,
  httpsGet,
  oneServerLab,
  webSocketEcho,
} from '../../../test/support/lab-helpers';
import { sha512Crypt } from '../../lib/sha512-crypt';
import { runDeployment } from './run-deployment';

const env = oneServerLab();

// Three small upstreams on the server itself, each answering its own name at / and /api/.
const UPSTREAMS = `for n in one two three; do
  mkdir -p /tmp/up-$n/api && echo "upstream $n" > /tmp/up-$n/index.html && cp /tmp/up-$n/index.html /tmp/up-$n/api/
done
i=0
for n in one two three; do
  i=$((i + 1))
  setsid python3 -m http.server 900$i --bind 127.0.0.1 --directory /tmp/up-$n >/dev/null 2>&1 &
  echo $! > /tmp/up-$n.pid
done
for p in 9001 9002 9003; do
  for t in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null && break; sleep 0.1; done
done`;

const basic = (user: string, pass: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
});

async function deployWith(domain: string, options: TProxyOptions, targetServer?: string) {
  const { lab, s1 } = env;
  const log = captureLog();
  const input = deployInput(lab.status, s1, 'root', domain, {
    options,
    ...(targetServer ? { targetServer } : {}),
  });
  const outcome = await runDeployment(input, engineContext(lab.status, log));
  if (outcome.status !== 'completed') {
    throw new Error(`deployment failed: ${outcome.failure.message}\n--- log ---\n${log.text()}`);
  }
  return log;
}

const get = (domain: string, path = '/', headers: Record<string, string> = {}) =>
  httpsGet(env.lab.status, env.s1.address, domain, path, headers);

describe('proxy options on a lab server', () => {
  const site1 = () => env.s1.domains[0]!;
  const site2 = () => env.s1.domains[2]!;

  it('two upstreams both serve, one down leaves the other serving; a location routes to its own upstream; HSTS when on', async () => {
    const started = await env.lab.exec(env.s1.name, ['bash', '-c', UPSTREAMS]);
    expect(started.code).toBe(0);
    await deployWith(site1(), {
      upstreams: [{ url: 'http://127.0.0.1:9001' }, { url: 'http://127.0.0.1:9002' }],
      health: { maxFails: 1, failTimeout: 30 },
      locations: [{ path: '/api/', upstreams: [{ url: 'http://127.0.0.1:9003' }] }],
      hsts: { maxAge: 31536000, includeSubDomains: true, preload: false },
    });
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const page = await get(site1());
      expect(page.status).toBe(200);
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      seen.add(page.body.trim());
    }
    expect([...seen].sort()).toEqual(['upstream one', 'upstream two']);

    const api = await get(site1(), '/api/');
    expect(api.status).toBe(200);
    expect(api.body.trim()).toBe('upstream three');

    const killed = await env.lab.exec(env.s1.name, ['bash', '-c', 'kill "$(cat /tmp/up-two.pid)"']);
    expect(killed.code).toBe(0);
    for (let i = 0; i < 6; i++) {
      const page = await get(site1());
      expect(page.status).toBe(200);
      expect(page.body.trim()).toBe('upstream one');
    }
  });

  it('a WebSocket echo works through the proxy with WebSocket on, and HSTS is absent when off', async () => {
    await deployWith(site2(), { websocket: true });
    const { echo } = await webSocketEcho(env.lab.status, env.s1.address, site2(), 'ping options');
    expect(echo).toBe('ping options');
    expect((await get(site2())).headers['strict-transport-security']).toBeUndefined();
  });

  it('basic auth answers 401 without and 200 with the right user; the users file is root:nginx 0640', async () => {
    const passwordHash = sha512Crypt('lab-password-1', 'labsalt');
    await deployWith(site2(), { basicAuth: [{ username: 'ana', passwordHash }] });
    expect((await get(site2())).status).toBe(401);
    expect((await get(site2(), '/', basic('ana', 'wrong-password'))).status).toBe(401);
    const ok = await get(site2(), '/', basic('ana', 'lab-password-1'));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).upstream).toBe(env.lab.status.upstream.name);
    const file = await env.lab.exec(env.s1.name, [
      'bash',
      '-c',
      `stat -c '%U:%G %a' /etc/nginx/portico-htpasswd/${site2()}`,
    ]);
    expect(file.stdout.trim()).toBe('root:www-data 640');
  });

  it('the users file is in the site transaction: when nginx -t refuses the site, its previous bytes, owner and mode are back, and so is a removed one', async () => {
    const path = `/etc/nginx/portico-htpasswd/${site2()}`;
    const usersFile = async () =>
      (
        await env.lab.exec(env.s1.name, [
          'bash',
          '-c',
          `stat -c '%U:%G %a' ${path} && sha256sum < ${path}`,
        ])
      ).stdout;
    const before = await usersFile();
    expect(before).toContain('root:www-data 640');
    // A line nginx -t refuses (advanced lines are allowed on this instance). As the sudo user:
    // the users file travels on standard input past sudo's password, both ways.
    const refused = async (options: TProxyOptions) => {
      const log = captureLog();
      const context = engineContext(env.lab.status, log);
      const outcome = await runDeployment(
        deployInput(env.lab.status, env.s1, 'deploy', site2(), {
          options: { ...options, advanced: 'portico_no_such_directive on;' },
        }),
        { ...context, settings: { ...context.settings, allowCustomNginx: true } },
      );
      expect(outcome.status, log.text()).toBe('failed');
      if (outcome.status === 'failed') {
        expect(outcome.failure.code).toBe('nginx_config_invalid');
        expect(outcome.failure.step).toBe('http-site');
      }
      expect(log.text()).toContain(`Restored the previous ${path}.`);
      expect(log.text()).not.toContain('$6$');
      return log;
    };
    // Other users: the file is written, refused with the site, and put back.
    const other = sha512Crypt('lab-password-2', 'othersalt');
    await refused({ basicAuth: [{ username: 'bea', passwordHash: other }] });
    expect(await usersFile()).toBe(before);
    // No users: the file is removed, refused with the site, and put back.
    const log = await refused({});
    expect(log.text()).toContain(`Removed ${path}: the site no longer uses it.`);
    expect(await usersFile()).toBe(before);
    // nginx still serves the users of the last deployment that passed.
    expect((await get(site2(), '/', basic('ana', 'lab-password-1'))).status).toBe(200);
    expect((await get(site2(), '/', basic('bea', 'lab-password-2'))).status).toBe(401);
  });

  it('a denied address gets 403 while the ACME challenge path still answers', async () => {
    // The test host reaches the lab from 198.18.0.0/15 (the forwarded-for of deploy.lab.test.ts).
    await deployWith(site2(), { deny: ['198.18.0.0/15'] });
    // Without users, the file the site named before is gone.
    const users = await env.lab.exec(env.s1.name, [
      'test',
      '-e',
      `/etc/nginx/portico-htpasswd/${site2()}`,
    ]);
    expect(users.code).toBe(1);
    expect((await get(site2())).status).toBe(403);
    // Port 80 only redirects to HTTPS, where the address is refused.
    expect((await httpGet(env.s1.address, site2(), '/')).status).toBe(301);
    const token = 'portico-options-probe';
    await env.lab.exec(env.s1.name, [
      'bash',
      '-c',
      `mkdir -p /var/www/portico-acme/.well-known/acme-challenge && echo challenge-ok > /var/www/portico-acme/.well-known/acme-challenge/${token}`,
    ]);
    // The HTTPS server holds the deny rule: its ACME location is exempt from it.
    const path = `/.well-known/acme-challenge/${token}`;
    for (const acme of [await get(site2(), path), await httpGet(env.s1.address, site2(), path)]) {
      expect(acme.status).toBe(200);
      expect(acme.body.trim()).toBe('challenge-ok');
    }
  });

  it('IPv6 rules: a denied IPv6 client gets 403 and an allowed one 200, from the server itself over ::1', async () => {
    // The lab's network is IPv4 only; each server's loopback has ::1, so nginx listens on [::]
    // and the only IPv6 client is curl on the server.
    const status = async (address: string) => {
      const r = await env.lab.exec(env.s1.name, [
        'curl',
        '-sk',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '--resolve',
        `${site2()}:443:${address}`,
        `https://${site2()}/`,
      ]);
      return r.stdout.trim();
    };
    const ipv6 = await env.lab.exec(env.s1.name, ['grep', '-q', ' lo$', '/proc/net/if_inet6']);
    expect(ipv6.code).toBe(0);

    await deployWith(site2(), { deny: ['::1/128'] });
    expect(await status('[::1]')).toBe('403');
    expect(await status('127.0.0.1')).toBe('200');
    expect((await get(site2())).status).toBe(200);

    await deployWith(site2(), { allow: ['::/127'] });
    expect(await status('[::1]')).toBe('200');
    expect(await status('127.0.0.1')).toBe('403');
    expect((await get(site2())).status).toBe(403);
  });

  it('a redirect host answers 301 with the path and query kept', async () => {
    await deployWith(site2(), {
      redirect: { to: 'https://new.example.org/base', code: 301, keepPath: true },
    });
    const moved = await get(site2(), '/some/page?q=1');
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('https://new.example.org/base/some/page?q=1');
  });
});
