import { describe, expect, it } from 'vitest';
import { hasDeployCredential, unavailableReasonKey } from './proxy-status';

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
