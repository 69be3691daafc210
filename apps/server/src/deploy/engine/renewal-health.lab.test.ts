// How a deployment makes sure the server renews its certificate, on lab servers (testbed/), none
// of which runs systemd: s1 has cron installed but stopped (Portico starts it, enables it at
// boot, and certbot's own /etc/cron.d/certbot entry then runs), s2 runs cron already (found,
// nothing written), s3 has no cron and no package source to install one from (the step fails
// with the reason and the way out, in either language, while the site is served). What Portico
// says is checked against the server. The renewal a scheduler runs reloads nginx (deploy hook),
// which leaves nginx alone for a certificate no site uses yet (as at its first issuance), and
// stopping the lab ends the cron Portico started.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../../testbed/src/lab';
import {
  captureLog,
  deployInput,
  engineContext,
  httpsGet,
} from '../../../test/support/lab-helpers';
import { tlsHandshake } from '../../net/tls-probe';
import { certName } from '../site-names';
import { PORTICO_CRON_FILE } from './renewal-health';
import { runDeployment } from './run-deployment';

let lab: TLab | undefined;
const server = (name: string): TLabServer => lab!.status.servers.find((s) => s.name === name)!;

beforeAll(async () => {
  lab = await startLab({
    servers: 3,
    variants: { s2: ['cron-running'], s3: ['no-scheduler'] },
  });
});
afterAll(async () => {
  await lab?.stop();
});

async function deploy(name: string) {
  const s = server(name);
  const log = captureLog();
  const outcome = await runDeployment(
    deployInput(lab!.status, s, 'root', s.domains[0]!),
    engineContext(lab!.status, log),
  );
  return { outcome, log };
}

/** The names of the processes running on a lab server. */
async function processes(name: string): Promise<string[]> {
  const r = await lab!.exec(name, ['sh', '-c', 'cat /proc/[0-9]*/comm']);
  return r.stdout.split('\n');
}

async function servedFingerprint(s: TLabServer): Promise<string> {
  const ca = readFileSync(lab!.status.caRootPath, 'utf8');
  const hs = await tlsHandshake(
    { address: s.address, domain: s.domains[0]! },
    { ca: [ca], timeoutMs: 10_000, rejectUnauthorized: true },
  );
  return hs.cert.fingerprint256;
}

/** Host PIDs of the cron processes in a lab server's PID namespace. */
async function cronPidsOf(name: string): Promise<number[]> {
  const ns = (await lab!.exec(name, ['readlink', '/proc/self/ns/pid'])).stdout.trim();
  const pids: number[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'cron' && readlinkSync(`/proc/${entry}/ns/pid`) === ns) pids.push(+entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

describe('renewal health on servers without systemd', () => {
  it('cron installed but stopped: Portico starts it, enables it at boot, and says so', async () => {
    expect(await processes('s1')).not.toContain('cron');
    const { outcome, log } = await deploy('s1');
    if (outcome.status !== 'completed') throw new Error(`failed: ${outcome.failure.message}`);
    expect(outcome.renewal).toMatchObject({
      method: 'cron',
      where: '/etc/cron.d/certbot',
      working: true,
      setUpByPortico: true,
      notes: [
        { key: 'certificates.renewal.cronStarted', params: { how: 'service cron start' } },
        {
          key: 'certificates.renewal.cronBootEnabled',
          params: { how: 'update-rc.d cron defaults' },
        },
        { key: 'certificates.renewal.cronFound', params: { file: '/etc/cron.d/certbot' } },
      ],
    });
    const said = log.lines.filter((l) => l.level === 'success').map((l) => l.message);
    expect(said).toContain(
      'cron was installed but not running: Portico started it (service cron start).',
    );
    expect(said).toContain('cron runs certbot renew from /etc/cron.d/certbot.');
    // What Portico said is what the server has: cron runs, starts at boot, certbot's entry.
    expect(await processes('s1')).toContain('cron');
    const boot = await lab!.exec('s1', ['sh', '-c', 'ls /etc/rc2.d | grep -c cron']);
    expect(boot.stdout.trim()).toBe('1');
    const entry = await lab!.exec('s1', ['grep', '-c', 'certbot -q renew', '/etc/cron.d/certbot']);
    expect(entry.stdout.trim()).toBe('1');
    expect((await lab!.exec('s1', ['test', '-e', PORTICO_CRON_FILE])).code).toBe(1);
  });

  it('cron already running with a certbot entry: found, nothing started or written', async () => {
    const before = await cronPidsOf('s2');
    expect(before).toHaveLength(1);
    const { outcome, log } = await deploy('s2');
    if (outcome.status !== 'completed') throw new Error(`failed: ${outcome.failure.message}`);
    expect(outcome.renewal).toMatchObject({
      method: 'cron',
      where: '/etc/cron.d/certbot',
      working: true,
      setUpByPortico: false,
      notes: [{ key: 'certificates.renewal.cronFound' }],
    });
    expect(log.text()).toContain('success: cron runs certbot renew from /etc/cron.d/certbot.');
    expect(await cronPidsOf('s2')).toEqual(before);
    expect((await lab!.exec('s2', ['test', '-e', PORTICO_CRON_FILE])).code).toBe(1);
  });

  it('no cron and none installable: the step fails with the reason and the way out; the site is served', async () => {
    const s3 = server('s3');
    const { outcome, log } = await deploy('s3');
    if (outcome.status !== 'failed') throw new Error('completed on a server where nothing renews');
    expect(outcome.failure).toMatchObject({ code: 'renewal_unavailable', step: 'renewal' });
    expect(outcome.served?.renewal).toMatchObject({ method: 'none', working: false });
    expect(outcome.served?.nginxConfigPath).toBe(
      `/etc/nginx/sites-available/proxy-${s3.domains[0]}`,
    );
    const en = renderText('en', outcome.failure.text);
    expect(en).toContain(
      'Nothing on this server renews certificates: no systemd timer for certbot and no running cron with a certbot entry.',
    );
    expect(en).toContain(
      'Installing cron with apt-get failed (exit 100), so cron could not be set up.',
    );
    // apt-get's own words, quoted.
    expect(en).toContain("E: Package 'cron' has no installation candidate\nThe site is served");
    expect(en).toContain(
      'The site is served over HTTPS now, but its certificate will expire without being renewed.',
    );
    expect(en).toContain('To fix it, make cron installable or install it yourself');
    const es = renderText('es', outcome.failure.text);
    expect(es).toContain('Nada en este servidor renueva los certificados');
    expect(es).toContain('La instalación de cron con apt-get falló (código 100)');
    expect(es).toContain('Para arreglarlo, haz que cron se pueda instalar');
    // The install was tried, in the log as it ran; the failure is the log's last line.
    expect(log.text()).toContain('Installing cron with apt-get');
    expect(log.lines.at(-1)).toMatchObject({ level: 'error', message: outcome.failure.message });
    // True on the server: no cron, nothing written; the site answers over HTTPS all the same.
    expect(await processes('s3')).not.toContain('cron');
    expect((await lab!.exec('s3', ['test', '-e', PORTICO_CRON_FILE])).code).toBe(1);
    const answer = await httpsGet(lab!.status, s3.address, s3.domains[0]!);
    expect(answer.status).toBeLessThan(500);
  });

  it("certbot's renewal, as the scheduler runs it, reloads nginx: the new certificate is served", async () => {
    const s1 = server('s1');
    const before = await servedFingerprint(s1);
    // `certbot renew` reads the deploy hook from the renewal configuration the deployment wrote.
    const renew = await lab!.exec('s1', [
      'certbot',
      'renew',
      '--cert-name',
      certName(s1.domains[0]!),
      '--force-renewal',
      '--no-random-sleep-on-renew',
      '--non-interactive',
      '--server',
      lab!.status.acmeDirectoryUrl,
    ]);
    expect(renew.code, renew.stdout + renew.stderr).toBe(0);
    const conf = await lab!.exec('s1', [
      'cat',
      `/etc/letsencrypt/renewal/${certName(s1.domains[0]!)}.conf`,
    ]);
    expect(conf.stdout).toMatch(/renew_hook = .*nginx -s reload/);
    // A reload only signals nginx: new workers take the new certificate a moment later.
    let after = await servedFingerprint(s1);
    for (let i = 0; i < 50 && after === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await servedFingerprint(s1);
    }
    expect(after).not.toBe(before);
  });

  it('the deploy hook reloads nginx only when a file under /etc/nginx uses the certificate', async () => {
    const s1 = server('s1');
    const conf = await lab!.exec('s1', [
      'cat',
      `/etc/letsencrypt/renewal/${certName(s1.domains[0]!)}.conf`,
    ]);
    // As certbot runs it: its configuration file keeps a value holding quotes in '''…'''.
    const hook = /^renew_hook = (.*)$/m.exec(conf.stdout)?.[1]?.replace(/^'''(.*)'''$/, '$1');
    expect(hook).toBeDefined();
    const workers = async () =>
      (await lab!.exec('s1', ['bash', '-c', 'pgrep -P "$(cat /run/nginx.pid)" | sort'])).stdout;
    const runHook = (lineage: string) =>
      lab!.exec('s1', ['env', `RENEWED_LINEAGE=${lineage}`, 'sh', '-c', hook!]);

    // A certificate no site names (as at its first issuance): nginx is left alone.
    const before = await workers();
    expect(before.trim()).not.toBe('');
    const unused = await runHook('/etc/letsencrypt/live/nothing-uses-this');
    expect(unused.code, `${hook}\n${unused.stdout}${unused.stderr}`).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await workers()).toBe(before);

    // The deployed site's certificate: nginx reloads, and new workers replace the old.
    const lineage = `/etc/letsencrypt/live/${certName(s1.domains[0]!)}`;
    expect((await runHook(lineage)).code).toBe(0);
    let after = await workers();
    for (let i = 0; i < 50 && after === before; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      after = await workers();
    }
    expect(after).not.toBe(before);
  });

  it('stopping the lab ends the cron daemons running on its servers', async () => {
    const pids = [...(await cronPidsOf('s1')), ...(await cronPidsOf('s2'))];
    expect(pids).toHaveLength(2);
    await lab!.stop();
    lab = undefined;
    for (const pid of pids) {
      let alive = true;
      for (let i = 0; i < 50 && alive; i += 1) {
        try {
          process.kill(pid, 0);
          await new Promise((resolve) => setTimeout(resolve, 100));
        } catch {
          alive = false;
        }
      }
      expect(alive, `cron ${pid} still running`).toBe(false);
    }
  });
});
