// Wildcards through DNS-01 on a lab server (issue 41): certbot's RFC 2136 plugin writes the
// challenge into the lab's bind9 with its TSIG key, Pebble reads it through the lab's DNS, and
// the site serves every subdomain; the credentials live in one root-only file that certbot's own
// renewals use without Portico and that goes with the last certificate naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  captureLog,
  deployInput,
  engineContext,
  httpsGet,
} from '../../../test/support/lab-helpers';
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

  it("renews on the server's own, without Portico", async () => {
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
