// Wildcards through DNS-01 on a lab server (issue 41): certbot's RFC 2136 plugin writes the
// challenge into the lab's bind9 with its TSIG key, Pebble reads it through the lab's DNS, and
// the site serves every subdomain; the credentials live in one root-only file that certbot's own
// renewals use without Portico and that goes with the last certificate naming it. A third proxy,
// c.<zone>, is served with that wildcard's certificate (certbot not run for it), follows its
// renewal, and leaves the lineage when it goes; the holder's removal keeps the lineage it names.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  captureLog,
  deployInput,
  engineContext,
  httpsGet,
} from '../../../test/support/lab-helpers';
import { tlsHandshake } from '../../net/tls-probe';
import { DNS_CREDENTIALS_DIR, type TDnsChallenge } from './dns-challenge';
import { planDeployment } from './plan-deployment';
import { removeSite } from './remove-site';
import { runDeployment } from './run-deployment';
import type { TDeployInput } from './types';

let lab: TLab;
let s1: TLabServer;
let zone: string;
let challenge: TDnsChallenge;

beforeAll(async () => {
  lab = await startLab({ servers: 1, dns01: true });
  s1 = lab.status.servers[0]!;
  const d = lab.status.dns01!;
  zone = `${s1.name}.${d.zone}`;
  challenge = {
    credentials: {
      provider: 'rfc2136',
      server: d.server,
      port: d.port,
      keyName: d.keyName,
      algorithm: 'HMAC-SHA256',
      secret: d.secret,
    },
    includeApex: false,
  };
});

afterAll(async () => {
  await lab?.stop();
});

function context(log: ReturnType<typeof captureLog>) {
  const ctx = engineContext(lab.status, log);
  // bind answers at once: certbot's 60 s default wait is for real providers' secondaries.
  ctx.settings.dnsPropagationSeconds = 1;
  return ctx;
}

function input(domain: string, user: 'root' | 'deploy', dns?: TDnsChallenge): TDeployInput {
  return deployInput(lab.status, s1, user, domain, dns ? { dnsChallenge: dns } : {});
}

/** The certificate served for `name`, its chain verified against the lab's Pebble root. */
async function servedFingerprint(name: string): Promise<string> {
  const hs = await tlsHandshake(
    { address: s1.address, domain: name },
    {
      ca: [readFileSync(lab.status.caRootPath, 'utf8')],
      timeoutMs: 10_000,
      rejectUnauthorized: true,
    },
  );
  return hs.cert.fingerprint256;
}

/** c.<zone>, served with the certificate of *.<zone> (issue 41, "of the same server"). */
function sharedInput(name = `c.${zone}`): TDeployInput {
  return { ...input(name, 'root'), sharedWildcard: { domain: `*.${zone}` } };
}

async function lineageFiles(): Promise<string> {
  const r = await lab.exec(s1.name, ['ls', `/etc/letsencrypt/live/_wildcard.${zone}`]);
  return r.stdout.trim();
}

async function credentialFiles(): Promise<string> {
  const r = await lab.exec(s1.name, [
    'bash',
    '-c',
    `stat -c '%a %U %n' ${DNS_CREDENTIALS_DIR} ${DNS_CREDENTIALS_DIR}/*.ini 2>/dev/null; true`,
  ]);
  return r.stdout.trim();
}

describe('a wildcard certificate by DNS-01 (RFC 2136, bind9 + Pebble)', () => {
  it('refuses a wildcard without the DNS challenge before touching the server', async () => {
    const log = captureLog();
    const outcome = await runDeployment(input(`*.${zone}`, 'root'), context(log));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toMatchObject({ code: 'invalid_input', step: 'validate' });
    expect(await credentialFiles()).toBe('');
  });

  it('fails naming the plugin package a server cannot install, writing no credentials', async () => {
    const log = captureLog();
    const cloudflare: TDnsChallenge = {
      credentials: { provider: 'cloudflare', apiToken: 'lab-token-without-a-provider-0123' },
      includeApex: false,
    };
    const outcome = await runDeployment(input(`*.${zone}`, 'root', cloudflare), context(log));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toMatchObject({ code: 'package_install_failed', step: 'packages' });
    expect(outcome.failure.message).toContain('could not install python3-certbot-dns-cloudflare');
    expect(await credentialFiles()).toBe('');
  });

  it("leaves root's own AWS configuration alone: Route 53 stops before installing anything", async () => {
    const own = '[default]\nregion = eu-west-1\n';
    const aws = (script: string) => lab.exec(s1.name, ['bash', '-c', script]);
    await aws(`mkdir -p /root/.aws && printf '${own}' > /root/.aws/config`);
    const route53: TDnsChallenge = {
      credentials: {
        provider: 'route53',
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
      includeApex: false,
    };
    const log = captureLog();
    const outcome = await runDeployment(input(`*.${zone}`, 'deploy', route53), context(log));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toMatchObject({ code: 'invalid_input', step: 'packages' });
    expect(outcome.failure.message).toContain('/root/.aws/config exists and was not written by');
    expect(log.text()).not.toContain('python3-certbot-dns-route53');
    expect((await aws('cat /root/.aws/config')).stdout).toBe(own);
    await aws('rm -rf /root/.aws');
  });

  it('plans the credentials file as a private write, its content never shown', async () => {
    const log = captureLog();
    const outcome = await planDeployment(input(`*.${zone}`, 'root', challenge), context(log));
    expect(outcome.status, log.text()).toBe('planned');
    if (outcome.status !== 'planned') return;
    const file = outcome.plan.files.find((f) => f.path.startsWith(`${DNS_CREDENTIALS_DIR}/`));
    expect(file).toMatchObject({ private: true, change: 'create', diff: '' });
    expect(JSON.stringify(outcome.plan)).not.toContain(lab.status.dns01!.secret);
  });

  it('issues *.zone through bind9 and serves two subdomains with a chain valid for both', async () => {
    const log = captureLog();
    const outcome = await runDeployment(input(`*.${zone}`, 'deploy', challenge), context(log));
    expect(outcome.status, log.text()).toBe('completed');
    expect(log.text()).toContain('DNS-01 through rfc2136');
    expect(log.text()).not.toContain(lab.status.dns01!.secret);
    for (const name of [`one.${zone}`, `two.${zone}`]) {
      const answer = await httpsGet(lab.status, s1.address, name);
      expect(answer.status, name).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        upstream: lab.status.upstream.name,
        host: name,
      });
    }
    const site = await lab.exec(s1.name, [
      'cat',
      `/etc/nginx/sites-available/proxy-_wildcard.${zone}`,
    ]);
    expect(site.stdout).toContain(`server_name *.${zone};`);
    expect(site.stdout).toContain('return 301 https://$host$request_uri;');
    const files = (await credentialFiles()).split('\n');
    expect(files[0]).toBe(`700 root ${DNS_CREDENTIALS_DIR}`);
    expect(files.slice(1)).toEqual([
      expect.stringMatching(/^600 root \/etc\/portico\/dns\/rfc2136-[0-9a-f]{16}\.ini$/),
    ]);
  });

  it('issues a plain name by DNS-01 with the same credentials, sharing their file', async () => {
    const log = captureLog();
    const outcome = await runDeployment(input(zone, 'root', challenge), context(log));
    expect(outcome.status, log.text()).toBe('completed');
    expect(log.text()).toContain('are unchanged');
    expect((await httpsGet(lab.status, s1.address, zone)).status).toBe(200);
    expect((await credentialFiles()).split('\n')).toHaveLength(2);
  });

  it('refuses a name the wildcard does not cover before touching the server', async () => {
    const log = captureLog();
    const outcome = await runDeployment(sharedInput(`a.b.${zone}`), context(log));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toMatchObject({ code: 'invalid_input', step: 'validate' });
    expect(outcome.failure.message).toContain(`*.${zone} does not cover a.b.${zone}`);
  });

  it('serves c.zone with the wildcard certificate already on the server, no certbot for it', async () => {
    const planned = await planDeployment(sharedInput(), context(captureLog()));
    expect(planned.status).toBe('planned');
    if (planned.status !== 'planned') return;
    expect(planned.plan.certificate).toBe('shared');
    expect(planned.plan.commands.map((c) => c.kind)).not.toContain('certificate-issue');
    expect(JSON.stringify(planned.plan.files)).toContain(
      `/etc/letsencrypt/live/_wildcard.${zone}/`,
    );
    const log = captureLog();
    const outcome = await runDeployment(sharedInput(), context(log));
    expect(outcome.status, log.text()).toBe('completed');
    expect(log.text()).toContain(`with the wildcard certificate of *.${zone}`);
    expect(log.text()).not.toContain('Requesting a certificate');
    const served = await servedFingerprint(`c.${zone}`);
    expect(served).toBe(await servedFingerprint(`one.${zone}`));
    if (outcome.status === 'completed') expect(outcome.onServer?.fingerprint).toBe(served);
    expect((await httpsGet(lab.status, s1.address, `c.${zone}`)).status).toBe(200);
    const site = await lab.exec(s1.name, ['cat', `/etc/nginx/sites-available/proxy-c.${zone}`]);
    expect(site.stdout).toContain(
      `ssl_certificate /etc/letsencrypt/live/_wildcard.${zone}/fullchain.pem;`,
    );
    expect((await lab.exec(s1.name, ['test', '-e', `/etc/letsencrypt/live/c.${zone}`])).code).toBe(
      1,
    );
  });

  it("renews on the server's own, without Portico", async () => {
    const before = await servedFingerprint(`c.${zone}`);
    const renew = await lab.exec(s1.name, [
      'certbot',
      'renew',
      '--cert-name',
      `_wildcard.${zone}`,
      '--force-renewal',
      // certbot renew waits up to 8 minutes at random when run without a terminal.
      '--no-random-sleep-on-renew',
      '--non-interactive',
    ]);
    expect(renew.code, renew.stdout + renew.stderr).toBe(0);
    expect(renew.stdout + renew.stderr).toMatch(/all renewals succeeded/i);
    expect(renew.stdout + renew.stderr).toContain(`_wildcard.${zone}`);
    expect((await httpsGet(lab.status, s1.address, `three.${zone}`)).status).toBe(200);
    // The deploy hook reloaded nginx: c.zone serves the renewed wildcard certificate too. The
    // hook's `nginx -s reload` only signals the master, so the old workers may answer a moment
    // longer: looked at for up to 10 s.
    let renewed = await servedFingerprint(`c.${zone}`);
    for (let i = 0; i < 50 && renewed === before; i++) {
      await new Promise((r) => setTimeout(r, 200));
      renewed = await servedFingerprint(`c.${zone}`);
    }
    expect(renewed).not.toBe(before);
    expect(renewed).toBe(await servedFingerprint(`three.${zone}`));
  });

  it("keeps the wildcard's certificate while c.zone names it, and c.zone's removal leaves it", async () => {
    const holder = captureLog();
    const removeHolder = { ...input(`*.${zone}`, 'deploy'), removeCertificate: true };
    expect(await removeSite(removeHolder, context(holder)), holder.text()).toEqual({
      status: 'removed',
    });
    expect(holder.text()).toContain(`Kept the certificate _wildcard.${zone}`);
    expect(holder.text()).toContain(`proxy-c.${zone}`);
    expect((await httpsGet(lab.status, s1.address, `c.${zone}`)).status).toBe(200);
    const user = captureLog();
    const removeUser = { ...input(`c.${zone}`, 'root'), removeCertificate: true };
    expect(await removeSite(removeUser, context(user)), user.text()).toEqual({ status: 'removed' });
    expect(user.text()).toContain('There was no certificate to delete.');
    expect(await lineageFiles()).toContain('fullchain.pem');
  });

  it('keeps the credentials while a renewal names them and removes them with the last', async () => {
    const first = captureLog();
    const removeWildcard = { ...input(`*.${zone}`, 'deploy'), removeCertificate: true };
    expect(await removeSite(removeWildcard, context(first)), first.text()).toEqual({
      status: 'removed',
    });
    expect((await credentialFiles()).split('\n')).toHaveLength(2);
    const last = captureLog();
    const removePlain = { ...input(zone, 'root'), removeCertificate: true };
    expect(await removeSite(removePlain, context(last)), last.text()).toEqual({
      status: 'removed',
    });
    expect(last.text()).toContain("no certificate's renewal uses these DNS credentials");
    expect(await credentialFiles()).toBe(`700 root ${DNS_CREDENTIALS_DIR}`);
  });
});
