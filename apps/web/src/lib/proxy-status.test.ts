import { describe, expect, it } from 'vitest';
import { hasDeployCredential, unavailableReason, unavailableReasonKey } from './proxy-status';

describe('what a redeploy logs in with', () => {
  const base = { status: 'completed' as const, targetServer: 'http://10.0.0.5:8080' };

  it('a proxy on its saved server needs no password of its own', () => {
    const onServer = { ...base, hasSshPassword: false, sshAuth: 'server' as const };
    expect(hasDeployCredential(onServer)).toBe(true);
    expect(unavailableReasonKey(onServer, 'redeploy')).toBeNull();
  });

  it('with neither its own password nor a saved server, the redeploy asks for one', () => {
    const bare = { ...base, hasSshPassword: false, sshAuth: 'none' as const };
    expect(hasDeployCredential(bare)).toBe(false);
    expect(unavailableReasonKey(bare, 'redeploy')).toBe('errors.deployNeedsPassword');
    expect(unavailableReasonKey({ ...bare, hasSshPassword: true }, 'redeploy')).toBeNull();
  });
});

describe('what an adopted site offers', () => {
  const adopted = {
    status: 'completed' as const,
    targetServer: 'http://10.0.0.5:8080',
    sshAuth: 'server' as const,
    adoption: { file: '/etc/nginx/sites-enabled/shop' },
  };

  it('no edit, reset or redeploy (the server refuses them), with the reason naming its file', () => {
    for (const action of ['edit', 'reset', 'redeploy'] as const) {
      expect(unavailableReasonKey(adopted, action)).toBe('errors.proxyAdopted');
    }
    const t = ((key: string, params: { file: string }) => `${key}:${params.file}`) as never;
    expect(unavailableReason(t, adopted, 'redeploy')).toBe(
      'errors.proxyAdopted:/etc/nginx/sites-enabled/shop',
    );
  });

  it('delete and forgetting the host key stay open; without adoption nothing changes', () => {
    expect(unavailableReasonKey(adopted, 'delete')).toBeNull();
    expect(unavailableReasonKey(adopted, 'forgetHostKey')).toBeNull();
    const { adoption: _, ...own } = adopted;
    expect(unavailableReasonKey(own, 'edit')).toBeNull();
    expect(unavailableReason(((key: string) => key) as never, own, 'redeploy')).toBeNull();
  });
});
