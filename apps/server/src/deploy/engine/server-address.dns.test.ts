import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TTestDnsServer } from '../../modules/checks/test-dns-server';
import { DeployValidationError } from '../validate';
import { StepError } from './failure';
import { EngineLog } from './logger';
import { resolveServerAddress } from './server-address';

describe('the server address of a run (IPv4, or a host name resolved once)', () => {
  let dns: TTestDnsServer;
  beforeAll(async () => {
    dns = await startTestDnsServer({ zone: 'lab.test', a: { 'box.lab.test': '198.51.100.7' } });
  });
  afterAll(async () => dns?.stop());

  const run = (value: unknown, lang: 'en' | 'es' = 'en') => {
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
    expect((error as StepError).message).toMatch(
      /^La dirección del servidor gone\.lab\.test no se resuelve/,
    );
  });

  it('refuses anything that is neither, before any lookup', async () => {
    for (const value of ['$(id).lab.test', '-oProxyCommand=x', '203.0.113.999', 42]) {
      await expect(run(value).result).rejects.toBeInstanceOf(DeployValidationError);
    }
  });
});
