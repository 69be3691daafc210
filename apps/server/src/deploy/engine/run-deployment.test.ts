// Input the engine refuses before it opens any connection.
import { describe, expect, it } from 'vitest';
import { removeSite } from './remove-site';
import { runDeployment } from './run-deployment';
import type { TDeployInput, TEngineContext } from './types';

const good: TDeployInput = {
  domain: 'app.example.com',
  serverIp: '203.0.113.10',
  sshPort: 22,
  sshUser: 'root',
  auth: { password: 'pw' },
  email: 'ops@example.com',
  targetServer: 'http://10.0.0.5:3000',
};

function context(lines: string[]): TEngineContext {
  return {
    settings: { acmeDirectoryUrl: 'https://acme.invalid/dir' },
    log: (level, message) => void lines.push(`${level}: ${message}`),
  };
}

describe('runDeployment refuses invalid input before connecting', () => {
  it.each([
    ['serverIp', 'server address', { serverIp: '203.0.113.10; reboot' }],
    ['sshPort', 'SSH port', { sshPort: 70000 }],
    ['domain', 'domain', { domain: 'evil.com\nserver_name x' }],
    ['email', 'certificate e-mail', { email: 'a@b.c --server https://evil' }],
    ['targetServer', 'target( path)?', { targetServer: 'http://x:80/;return 302 https://evil' }],
  ])('%s', async (_field, named, change) => {
    const lines: string[] = [];
    const outcome = await runDeployment({ ...good, ...change }, context(lines));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('invalid_input');
    expect(outcome.failure.step).toBe('validate');
    expect(outcome.failure.message).toMatch(new RegExp(`^The ${named} is not valid: it \\w`));
    // The refused value itself is never echoed.
    expect(lines.join('\n')).not.toMatch(/reboot|server_name x|evil/);
    expect(lines.at(-1)).toBe(`error: ${outcome.failure.message}`);
  });

  it('removeSite too', async () => {
    const lines: string[] = [];
    const outcome = await removeSite({ ...good, domain: '-bad-.com' }, context(lines));
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'invalid_input' } });
  });
});
