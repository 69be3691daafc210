import type { TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TTestDnsServer } from '../../../test/peers/test-dns-server';
import { DeployValidationError } from '../validate';
import { StepError } from './failure';
import { EngineLog } from './logger';
import { removeSite } from './remove-site';
import { runDeployment } from './run-deployment';
import { resolveServerAddress } from './server-address';

describe('the server address of a run (IPv4, or a host name resolved once)', () => {
  let dns: TTestDnsServer;
  beforeAll(async () => {
    dns = await startTestDnsServer({
      zone: 'lab.test',
      a: { 'box.lab.test': '198.51.100.7', 'local.lab.test': '127.0.0.1' },
    });
  });
  afterAll(async () => dns?.stop());

  const run = (value: unknown, lang: TLanguage = 'en') => {
    const lines: string[] = [];
    const log = new EngineLog((_level, message) => void lines.push(message), lang);
    return { lines, result: resolveServerAddress(value, [dns.address], log) };
  };

  it('takes an IPv4 address as it is, without asking DNS', async () => {
    const { lines, result } = run('203.0.113.10');
    expect(await result).toBe('203.0.113.10');
    expect(lines).toEqual([]);
  });

  it('resolves a host name and says where it connects', async () => {
    const { lines, result } = run('box.lab.test');
    expect(await result).toBe('198.51.100.7');
    expect(lines.join('\n')).toContain('box.lab.test resolves to 198.51.100.7');
  });

  it('fails at connect, in the run language, when the name does not resolve', async () => {
    const { result } = run('gone.lab.test', 'es');
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).step).toBe('connect');
    expect(renderText('es', (error as StepError).text)).toMatch(
      /^La dirección del servidor gone\.lab\.test no se resuelve/,
    );
  });

  it('refuses anything that is neither, before any lookup', async () => {
    for (const value of ['$(id).lab.test', '-oProxyCommand=x', '203.0.113.999', 42]) {
      await expect(run(value).result).rejects.toBeInstanceOf(DeployValidationError);
    }
  });

  it('a deployment and a removal connect to the address the name resolves to', async () => {
    const input = {
      domain: 'app.example.com',
      serverIp: 'local.lab.test',
      sshPort: 1,
      sshUser: 'root',
      auth: { password: 'pw' },
      email: 'ops@example.com',
      targetServer: 'http://10.0.0.5:3000',
    };
    for (const engine of [runDeployment, removeSite]) {
      const lines: string[] = [];
      const ctx = {
        settings: {
          acmeDirectoryUrl: 'https://acme.invalid/dir',
          dnsServers: [dns.address],
          // Loopback allowed, as in development (security/ssh-reachability.dns.test.ts: refused).
          allowLoopback: true,
        },
        log: (_level: string, message: string) => void lines.push(message),
      };
      const outcome = await engine(input, ctx);
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') continue;
      expect(outcome.failure).toMatchObject({ code: 'tcp_connect', step: 'connect' });
      expect(outcome.failure.message).toContain('127.0.0.1:1');
      expect(lines[0]).toContain('local.lab.test resolves to 127.0.0.1');
      const gone = await engine({ ...input, serverIp: 'gone.lab.test' }, ctx);
      expect(gone).toMatchObject({ status: 'failed', failure: { code: 'tcp_connect' } });
    }
  });
});
