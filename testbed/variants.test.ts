// The server variants later tests need: nginx stopped, port 80 held by another program, an
// unrelated nginx site already there, no root login (sudo with password), and no systemd.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab } from './src/lab';
import { tcpOpen } from './src/probe';
import { waitFor } from './src/run';
import type { TLabServer } from './src/types';
import { sshTarget } from './test-support/deploy';
import { sshExec, sshSudo } from './test-support/ssh';

let lab: TLab;
const server = (name: string): TLabServer => {
  const found = lab.status.servers.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
};

function httpGet(address: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: address, headers: { host }, path: '/', timeout: 3000 }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  lab = await startLab({
    servers: 4,
    variants: {
      s1: ['nginx-stopped'],
      s2: ['port80-busy'],
      s3: ['existing-site'],
      s4: ['no-root-login'],
    },
  });
});

afterAll(async () => {
  await lab?.stop();
});

describe('server variants', () => {
  it('nginx-stopped: nginx installed but not running, nothing on port 80', async () => {
    const s1 = server('s1');
    expect(s1.variants).toEqual(['nginx-stopped']);
    expect(await tcpOpen(s1.address, 80)).toBe(false);
    expect((await lab.exec('s1', ['pgrep', '-x', 'nginx'])).code).toBe(1);
    expect((await lab.exec('s1', ['nginx', '-t'])).code).toBe(0);
    // Starting it the way a deployment would on a server without systemd.
    expect((await lab.exec('s1', ['nginx'])).code).toBe(0);
    await waitFor(
      () => tcpOpen(s1.address, 80),
      5000,
      () => 'nginx did not start',
    );
  });

  it('port80-busy: another program answers on port 80 and nginx is not running', async () => {
    const s2 = server('s2');
    const page = await httpGet(s2.address, 'site1.s2.portico.test');
    expect(page.body).toContain('not nginx');
    const owners = await lab.exec('s2', ['ss', '-Htlnp', 'sport = :80']);
    expect(owners.stdout).toContain('python3');
    expect(owners.stdout).not.toContain('nginx');
  });

  it('existing-site: an unrelated nginx site serves its own page beside the default', async () => {
    const s3 = server('s3');
    expect(s3.domains).toContain('legacy.s3.portico.test');
    expect(lab.status.domains['legacy.s3.portico.test']).toBe(s3.address);
    const legacy = await httpGet(s3.address, 'legacy.s3.portico.test');
    expect(legacy).toEqual({ status: 200, body: 'legacy site on s3\n' });
    const other = await httpGet(s3.address, 'site1.s3.portico.test');
    expect(other.body).toContain('Welcome to nginx');
    const enabled = await lab.exec('s3', ['ls', '/etc/nginx/sites-enabled']);
    expect(enabled.stdout.split('\n').filter(Boolean).sort()).toEqual(['default', 'legacy-site']);
  });

  it('no-root-login: root cannot log in, deploy can and becomes root with its password', async () => {
    const s4 = server('s4');
    await expect(sshExec(sshTarget(s4, 'root'), 'true')).rejects.toThrow(/authentication/i);
    const sudo = await sshSudo(sshTarget(s4, 'deploy'), 'id -u\n');
    expect(sudo).toMatchObject({ code: 0, stdout: '0\n' });
    const noPassword = await sshExec(sshTarget(s4, 'deploy'), 'sudo -n true');
    expect(noPassword.code).not.toBe(0);
  });

  it('no server runs systemd: systemctl cannot reload, nginx -s reload can', async () => {
    for (const name of ['s1', 's3']) {
      expect((await lab.exec(name, ['test', '-d', '/run/systemd/system'])).code).toBe(1);
      const systemctl = await lab.exec(name, ['systemctl', 'reload', 'nginx']);
      expect(systemctl.code).not.toBe(0);
      expect((await lab.exec(name, ['nginx', '-s', 'reload'])).code).toBe(0);
    }
  });
});
