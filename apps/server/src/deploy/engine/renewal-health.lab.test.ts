// How a deployment finds the server's certificate renewal, on a lab server (testbed/): no
// systemd and no cron daemon (certbot's /etc/cron.d/certbot is there, as the package leaves it,
// but nothing runs it). Portico must say that nothing renews the certificate and what to do,
// write nothing, and the renewal that a scheduler would run must reload nginx (deploy hook).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { certName } from '../site-names';
import { tlsHandshake } from '../tls-probe';
import { captureLog, deployInput, engineContext, oneServerLab } from './lab-helpers';
import { PORTICO_CRON_FILE } from './renewal-health';
import { runDeployment } from './run-deployment';

const t = oneServerLab();

async function servedFingerprint(domain: string): Promise<string> {
  const ca = readFileSync(t.lab.status.caRootPath, 'utf8');
  const hs = await tlsHandshake(
    { address: t.s1.address, domain },
    { ca: [ca], timeoutMs: 10_000, rejectUnauthorized: true },
  );
  return hs.cert.fingerprint256;
}

describe('renewal health on a server without systemd and without cron', () => {
  const domain = () => t.s1.domains[0]!;

  it('completes, says nothing renews the certificate and what to do, and writes nothing', async () => {
    const log = captureLog();
    const outcome = await runDeployment(
      deployInput(t.lab.status, t.s1, 'root', domain()),
      engineContext(t.lab.status, log),
    );
    if (outcome.status !== 'completed') throw new Error(`failed: ${outcome.failure.message}`);
    expect(outcome.renewal).toMatchObject({
      method: 'none',
      working: false,
      setUpByPortico: false,
      notes: [{ key: 'certificates.renewal.none' }, { key: 'certificates.renewal.noneWayOut' }],
    });
    const warnings = log.lines.filter((l) => l.level === 'warning').map((l) => l.message);
    expect(warnings).toContain(
      'Nothing on this server renews certificates: no systemd timer for certbot and no running cron with a certbot entry.',
    );
    expect(warnings.some((w) => w.startsWith('Install a scheduler and deploy again'))).toBe(true);
    // What Portico said is what the server has: no systemd, no cron process, nothing written.
    expect((await t.lab.exec(t.s1.name, ['test', '-d', '/run/systemd/system'])).code).toBe(1);
    const comms = await t.lab.exec(t.s1.name, ['sh', '-c', 'cat /proc/[0-9]*/comm']);
    expect(comms.stdout.split('\n')).not.toContain('cron');
    expect(comms.stdout.split('\n')).not.toContain('crond');
    expect((await t.lab.exec(t.s1.name, ['test', '-e', PORTICO_CRON_FILE])).code).toBe(1);
    const units = await t.lab.exec(t.s1.name, [
      'sh',
      '-c',
      'ls /etc/systemd/system | grep portico',
    ]);
    expect(units.stdout).toBe('');
  });

  it("certbot's renewal, as a scheduler runs it, reloads nginx: the new certificate is served", async () => {
    const before = await servedFingerprint(domain());
    // `certbot renew` reads the deploy hook from the renewal configuration the deployment wrote.
    const renew = await t.lab.exec(t.s1.name, [
      'certbot',
      'renew',
      '--cert-name',
      certName(domain()),
      '--force-renewal',
      '--no-random-sleep-on-renew',
      '--non-interactive',
      '--server',
      t.lab.status.acmeDirectoryUrl,
    ]);
    expect(renew.code, renew.stdout + renew.stderr).toBe(0);
    const conf = await t.lab.exec(t.s1.name, [
      'cat',
      `/etc/letsencrypt/renewal/${certName(domain())}.conf`,
    ]);
    expect(conf.stdout).toMatch(/renew_hook = .*nginx -s reload/);
    // A reload only signals nginx: new workers take the new certificate a moment later.
    let after = await servedFingerprint(domain());
    for (let i = 0; i < 50 && after === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await servedFingerprint(domain());
    }
    expect(after).not.toBe(before);
  });
});
