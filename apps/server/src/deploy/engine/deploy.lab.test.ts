// The engine end to end on lab servers (testbed/): real sshd, nginx, certbot and Pebble.
// s1: a plain server (root login); s2: root login refused and an unrelated site already
// running (the deploy user with sudo); s3: nginx installed but stopped.
import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  captureLog,
  deployInput,
  engineContext,
  httpGet,
  httpsGet,
  remoteFileSums,
  webSocketEcho,
} from '../../../test/support/lab-helpers';
import { countNginxParses } from '../../../test/support/nginx-parse-count';
import { planDeployment } from './plan-deployment';
import { removeSite } from './remove-site';
import { runDeployment } from './run-deployment';
import type { TDeployInput, TDeployOutcome } from './types';

let lab: TLab;
let s1: TLabServer;
let s2: TLabServer;
let s3: TLabServer;

beforeAll(async () => {
  lab = await startLab({
    servers: 3,
    variants: { s2: ['no-root-login', 'existing-site'], s3: ['nginx-stopped'] },
  });
  [s1, s2, s3] = lab.status.servers as [TLabServer, TLabServer, TLabServer];
});

afterAll(async () => {
  await lab?.stop();
});

async function deploy(input: TDeployInput) {
  const log = captureLog();
  const outcome = await runDeployment(input, engineContext(lab.status, log));
  return { outcome, log };
}

function completed(outcome: TDeployOutcome, log: { text(): string }) {
  if (outcome.status !== 'completed') {
    throw new Error(`deployment failed: ${outcome.failure.message}\n--- log ---\n${log.text()}`);
  }
  return outcome;
}

async function siteFile(server: string, path: string): Promise<string> {
  return (await lab.exec(server, ['cat', path])).stdout;
}

let parses: Awaited<ReturnType<typeof countNginxParses>>;
/** The parses on s1 since the last call (test/support/nginx-parse-count.ts). */
const parsesOnS1 = () => parses.since();

describe('a deployment as root (s1)', () => {
  const domain = () => s1.domains[0]!;

  beforeAll(async () => {
    parses = await countNginxParses(lab, s1.name);
  });

  afterAll(async () => {
    await parses.stop();
  });

  it('serves HTTPS with a Pebble certificate and proxies to the upstream', async () => {
    // A plan first (read-only): its preflight reads the dump and keeps it, signed.
    const planned = await planDeployment(
      deployInput(lab.status, s1, 'root', domain()),
      engineContext(lab.status, captureLog()),
    );
    expect(planned.status).toBe('planned');
    expect(await parsesOnS1()).toEqual({ runs: ['-T'], reloads: 0 });
    const { outcome, log } = await deploy(deployInput(lab.status, s1, 'root', domain()));
    const done = completed(outcome, log);
    expect(done.hostKeyFingerprint).toBe(s1.hostKeyFingerprint);
    expect(done.nginxConfigPath).toBe(`/etc/nginx/sites-available/proxy-${domain()}`);
    expect(done.certificateExpiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(done.warnings).toEqual([]);
    expect(log.text()).toContain('certbot obtained a certificate');
    expect(log.text()).toContain('HTTPS works (HTTP/2)');

    const page = await httpsGet(lab.status, s1.address, domain(), '/hello?x=1');
    expect(page.status).toBe(200);
    expect(page.issuer).toMatch(/Pebble/);
    const seen = JSON.parse(page.body);
    expect(seen.upstream).toBe(lab.status.upstream.name);
    expect(seen.path).toBe('/hello?x=1');
    expect(seen.host).toBe(domain());
    expect(seen.xForwardedProto).toBe('https');
    expect(seen.xForwardedFor).toMatch(/^198\.1[89]\.\d+\.1$/);
    expect(seen.xRealIp).toBe(seen.xForwardedFor);
    expect(seen.remoteAddress).toBe(s1.address);
    // Four parses: for each site step its test and one reload (`nginx -s reload` would parse
    // once more before signalling: the master is signalled itself). No dump in the preflight:
    // the plan's was still true; the HTTPS site step's test is `nginx -T`, kept for the next run.
    expect(await parsesOnS1()).toEqual({ runs: ['-t', '-T'], reloads: 2 });
  });

  it('upgrades a WebSocket through the proxy', async () => {
    const { greeting, echo } = await webSocketEcho(lab.status, s1.address, domain(), 'ping 42');
    expect(JSON.parse(greeting)).toEqual({ upstream: lab.status.upstream.name, host: domain() });
    expect(echo).toBe('ping 42');
  });

  it('redirects HTTP to HTTPS, except the ACME challenge path', async () => {
    const plain = await httpGet(s1.address, domain(), '/some/page?q=1');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://${domain()}/some/page?q=1`);
    const acme = await httpGet(s1.address, domain(), '/.well-known/acme-challenge/missing');
    expect(acme.status).toBe(404);
  });

  it('a second identical deployment completes and changes no remote file', async () => {
    const before = await remoteFileSums(lab, s1.name);
    await parsesOnS1();
    const { outcome, log } = await deploy(deployInput(lab.status, s1, 'root', domain()));
    completed(outcome, log);
    // Three parses: the dump the last run kept, and no second reload.
    expect(await parsesOnS1()).toEqual({ runs: ['-t', '-T'], reloads: 1 });
    expect(await remoteFileSums(lab, s1.name)).toBe(before);
    expect(log.text()).toContain('nothing was rewritten');
    expect(log.text()).toContain('certbot kept it');
    // One reload: the HTTPS site step finds the files and certificate the first reload made live.
    expect(log.text()).toContain('no second reload');
    expect(log.text().match(/nginx reloaded; the new configuration is live/g)).toHaveLength(1);
    expect((await httpsGet(lab.status, s1.address, domain(), '/')).status).toBe(200);
  });

  it('a site written by hand since the last run is seen: the kept dump is not believed', async () => {
    const taken = `hand.${s1.name}.portico.test`;
    await lab.point(taken, s1.name);
    const hand = '/etc/nginx/conf.d/zz-by-hand.conf';
    const site = `server {\n    listen 80;\n    server_name ${taken};\n    return 204;\n}\n`;
    await lab.exec(s1.name, ['bash', '-c', 'printf "%s" "$1" > "$2"', 'write', site, hand]);
    try {
      await parsesOnS1();
      const before = await remoteFileSums(lab, s1.name);
      const { outcome } = await deploy(deployInput(lab.status, s1, 'root', taken));
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.failure.code).toBe('nginx_config_invalid');
      expect(outcome.failure.message).toContain(hand);
      // The preflight read nginx -T again, and nothing was written.
      expect(await parsesOnS1()).toEqual({ runs: ['-T'], reloads: 0 });
      expect(await remoteFileSums(lab, s1.name)).toBe(before);
    } finally {
      await lab.exec(s1.name, ['rm', '-f', hand]);
    }
  });

  it('a login script printing to stdout: unchanged files are recognised, a site file is written; an SFTP transfer is refused clearly', async () => {
    await lab.exec(s1.name, [
      'bash',
      '-c',
      'touch /root/.bashrc && cp /root/.bashrc /root/.bashrc.orig && echo "echo Welcome to \\$(hostname)" >> /root/.bashrc',
    ]);
    try {
      const before = await remoteFileSums(lab, s1.name);
      const same = await deploy(deployInput(lab.status, s1, 'root', domain()));
      completed(same.outcome, same.log);
      expect(await remoteFileSums(lab, s1.name)).toBe(before);

      // SFTP cannot work through such a script: a private file (the custom script, 0700) is
      // refused, saying why, and nothing changed.
      const scripted = await deploy(
        deployInput(lab.status, s1, 'root', domain(), { customScript: 'echo hello' }),
      );
      expect(scripted.outcome.status).toBe('failed');
      if (scripted.outcome.status !== 'failed') return;
      expect(scripted.outcome.failure.step).toBe('custom-script');
      expect(scripted.outcome.failure.message).toMatch(/login script .* prints text/);
      expect(await remoteFileSums(lab, s1.name)).toBe(before);

      // A site file (world-readable) travels on the command line: a changed target is written.
      const target = `http://${lab.status.upstream.address}:${lab.status.upstream.port}/other`;
      const changed = await deploy(
        deployInput(lab.status, s1, 'root', domain(), { targetServer: target }),
      );
      completed(changed.outcome, changed.log);
      const page = await httpsGet(lab.status, s1.address, domain(), '/items');
      expect(JSON.parse(page.body).path).toBe('/other/items');
    } finally {
      await lab.exec(s1.name, ['mv', '/root/.bashrc.orig', '/root/.bashrc']);
    }
  });

  it('a changed target is served after redeploying', async () => {
    const target = `http://${lab.status.upstream.address}:${lab.status.upstream.port}/v2`;
    const { outcome, log } = await deploy(
      deployInput(lab.status, s1, 'root', domain(), { targetServer: target }),
    );
    completed(outcome, log);
    const page = await httpsGet(lab.status, s1.address, domain(), '/items');
    expect(JSON.parse(page.body).path).toBe('/v2/items');
  });

  it('an unreachable target completes with a warning naming it', async () => {
    const { outcome, log } = await deploy(
      deployInput(lab.status, s1, 'root', domain(), { targetServer: 'http://127.0.0.1:9' }),
    );
    const done = completed(outcome, log);
    expect(done.warnings).toHaveLength(1);
    const warning = renderText('en', done.warnings[0]!);
    expect(warning).toMatch(/answered 502/);
    expect(warning).toContain('http://127.0.0.1:9');
    expect(log.lines.some((l) => l.level === 'warning' && l.message.includes('127.0.0.1:9'))).toBe(
      true,
    );
  });

  it('runs the custom script last on the server and streams its output', async () => {
    // Saved on Windows: CRLF line endings.
    const script = 'echo "configuring $PORTICO_DOMAIN"\r\nid -u > /root/portico-script-ran\r\n';
    const { outcome, log } = await deploy(
      deployInput(lab.status, s1, 'root', domain(), { customScript: script }),
    );
    completed(outcome, log);
    expect(log.text()).toContain(`script: configuring ${domain()}`);
    expect((await lab.exec(s1.name, ['cat', '/root/portico-script-ran'])).stdout).toBe('0\n');
    const leftovers = await lab.exec(s1.name, ['bash', '-c', 'ls /tmp | grep -c portico-script']);
    expect(leftovers.stdout.trim()).toBe('0');
  });

  it('a failing custom script fails the deployment with its output', async () => {
    const script = 'echo "migrating"\necho "database is locked" >&2\nexit 3\n';
    const { outcome, log } = await deploy(
      deployInput(lab.status, s1, 'root', domain(), { customScript: script }),
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('custom_script_failed');
    expect(outcome.failure.message).toContain('status 3');
    expect(outcome.failure.message).toContain('database is locked');
    expect(log.lines.at(-1)?.level).toBe('error');
  });
});

describe('a deployment with sudo beside an existing site (s2)', () => {
  const domain = () => s2.domains[0]!;
  const legacy = () => s2.domains.find((d) => d.startsWith('legacy.'))!;

  it('the deploy user deploys through sudo; the unrelated site keeps serving', async () => {
    const { outcome, log } = await deploy(deployInput(lab.status, s2, 'deploy', domain()));
    completed(outcome, log);
    expect(log.text()).toContain('sudo works');
    const page = await httpsGet(lab.status, s2.address, domain());
    expect(JSON.parse(page.body).host).toBe(domain());
    expect((await httpGet(s2.address, legacy())).body).toContain('legacy site on s2');
  });

  it('a domain another site already serves is refused, and that site is left alone', async () => {
    const before = await remoteFileSums(lab, s2.name);
    const { outcome, log } = await deploy(deployInput(lab.status, s2, 'deploy', legacy()));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('nginx_config_invalid');
    expect(outcome.failure.message).toContain('/etc/nginx/sites-enabled/legacy-site');
    expect(log.lines.at(-1)?.level).toBe('error');
    expect(await remoteFileSums(lab, s2.name)).toBe(before);
    expect((await httpGet(s2.address, legacy())).body).toContain('legacy site on s2');
  });

  it('nginx -t failing restores the previous site and reloads nothing', async () => {
    const path = `/etc/nginx/sites-available/proxy-${domain()}`;
    const previous = await siteFile(s2.name, path);
    await lab.exec(s2.name, [
      'bash',
      '-c',
      'echo "this_is_not_a_directive on;" > /etc/nginx/conf.d/zz-broken.conf',
    ]);
    try {
      const target = `http://${lab.status.upstream.address}:${lab.status.upstream.port}/changed`;
      const { outcome, log } = await deploy(
        deployInput(lab.status, s2, 'deploy', domain(), { targetServer: target }),
      );
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.failure.code).toBe('nginx_config_invalid');
      expect(outcome.failure.message).toContain('unknown directive "this_is_not_a_directive"');
      expect(outcome.failure.message).toContain('zz-broken.conf');
      expect(log.lines.at(-1)?.message).toContain('nginx -t said');
      expect(await siteFile(s2.name, path)).toBe(previous);
    } finally {
      await lab.exec(s2.name, ['rm', '-f', '/etc/nginx/conf.d/zz-broken.conf']);
    }
    const page = await httpsGet(lab.status, s2.address, domain(), '/x');
    expect(JSON.parse(page.body).path).toBe('/x');
    expect((await httpGet(s2.address, legacy())).body).toContain('legacy site on s2');
  });

  it('removeSite takes the site off; nginx stays valid and the unrelated site keeps serving', async () => {
    const log = captureLog();
    const input = deployInput(lab.status, s2, 'deploy', domain());
    const outcome = await removeSite(input, engineContext(lab.status, log));
    expect(outcome, log.text()).toEqual({ status: 'removed' });
    const files = await lab.exec(s2.name, [
      'bash',
      '-c',
      'ls -A /etc/nginx/sites-available /etc/nginx/sites-enabled; nginx -t 2>&1',
    ]);
    expect(files.stdout).not.toContain(domain());
    expect(files.stdout).toContain('test is successful');
    const after = await httpGet(s2.address, domain());
    expect(after.status).not.toBe(301);
    expect(after.body).not.toContain(lab.status.upstream.name);
    expect((await httpGet(s2.address, legacy())).body).toContain('legacy site on s2');
    const cert = await lab.exec(s2.name, ['ls', '/etc/letsencrypt/live']);
    expect(cert.stdout).toContain(domain());
  });

  it('removeSite with removeCertificate deletes the certificate too', async () => {
    const log = captureLog();
    const input = { ...deployInput(lab.status, s2, 'deploy', domain()), removeCertificate: true };
    const outcome = await removeSite(input, engineContext(lab.status, log));
    expect(outcome, log.text()).toEqual({ status: 'removed' });
    expect(log.text()).toContain('nothing to remove');
    expect(log.text()).toContain('The certificate was deleted.');
    const left = await lab.exec(s2.name, [
      'bash',
      '-c',
      'ls /etc/letsencrypt/live /etc/letsencrypt/renewal',
    ]);
    expect(left.stdout).not.toContain(domain());
  });
});

describe('a server whose nginx is stopped (s3), and two servers at once', () => {
  it('starts nginx and completes', async () => {
    const { outcome, log } = await deploy(deployInput(lab.status, s3, 'root', s3.domains[0]!));
    completed(outcome, log);
    expect(log.text()).toContain('nginx is not running');
    const page = await httpsGet(lab.status, s3.address, s3.domains[0]!);
    expect(JSON.parse(page.body).host).toBe(s3.domains[0]);
  });

  it('a long domain gets the server names tuning nginx needs', async () => {
    // 61 characters: past the 46 that nginx's default bucket of 64 bytes holds.
    const domain = `a-rather-long-name-for-testing-buckets.${s3.name}.portico.test`;
    expect(domain.length).toBeGreaterThan(46);
    await lab.point(domain, s3.name);
    const { outcome, log } = await deploy(deployInput(lab.status, s3, 'root', domain));
    completed(outcome, log);
    expect(log.text()).toContain('server_names_hash_bucket_size 128');
    const tuning = await lab.exec(s3.name, ['cat', '/etc/nginx/conf.d/portico-server-names.conf']);
    expect(tuning.stdout).toContain('server_names_hash_bucket_size 128;');
    expect(JSON.parse((await httpsGet(lab.status, s3.address, domain)).body).host).toBe(domain);
  });

  it('two deployments to two servers at once both complete', async () => {
    const started = Date.now();
    const [a, b] = await Promise.all([
      deploy(deployInput(lab.status, s1, 'root', s1.domains[2]!)),
      deploy(deployInput(lab.status, s3, 'root', s3.domains[2]!)),
    ]);
    console.info(`two deployments in parallel: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    completed(a.outcome, a.log);
    completed(b.outcome, b.log);
    expect(JSON.parse((await httpsGet(lab.status, s1.address, s1.domains[2]!)).body).host).toBe(
      s1.domains[2],
    );
    expect(JSON.parse((await httpsGet(lab.status, s3.address, s3.domains[2]!)).body).host).toBe(
      s3.domains[2],
    );
  });

  it('two sites deployed to one server at once take turns and both complete', async () => {
    const domains = ['p1', 'p2'].map((p) => `${p}.${s1.name}.portico.test`);
    for (const d of domains) await lab.point(d, s1.name);
    const runs = await Promise.all(
      domains.map((d) => deploy(deployInput(lab.status, s1, 'root', d))),
    );
    for (const r of runs) completed(r.outcome, r.log);
    expect(runs.some((r) => r.log.text().includes('waiting for it to finish'))).toBe(true);
    for (const d of domains) {
      expect(JSON.parse((await httpsGet(lab.status, s1.address, d)).body).host).toBe(d);
    }
  });
});
