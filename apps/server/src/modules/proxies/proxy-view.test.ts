import { AUDIT_SECRET_MARK } from '@portico/shared/admin/api';
import { describe, expect, it } from 'vitest';
import type { TProxyConfigurationRow } from '../../db/schema';
import { diffFields } from '../audit/audit.service';
import { changedSinceDeploy, snapshotOf, toProxyConfiguration } from './proxy-view';

const row: TProxyConfigurationRow = {
  id: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  domain: 'app.example.com',
  serverIp: '203.0.113.5',
  sshPort: 22,
  sshUser: 'root',
  sshPasswordEnc: 'AQ==ciphertext',
  sshPasswordTarget: 'root@203.0.113.5:22',
  sshPrivateKeyEnc: null,
  sshServerId: null,
  hostKeyFingerprint: null,
  email: 'admin@example.com',
  targetServer: 'http://10.0.0.1:8080',
  options: {},
  status: 'completed',
  sslConfigured: true,
  nginxConfigPath: '/etc/nginx/sites-available/proxy-app.example.com',
  certificateExpiresAt: new Date('2027-01-01T00:00:00Z'),
  lastDeployedAt: new Date('2026-11-01T00:00:00Z'),
  deployedSnapshot: null,
  serverSites: [],
  lastFailure: null,
  origin: 'portico',
  adoptedFile: null,
  adoptedSha256: null,
  adoptedFileText: null,
  adoptedChangedAt: null,
  adoptedMissingAt: null,
  customScriptName: null,
  customScript: null,
  createdAt: new Date('2026-10-01T00:00:00Z'),
  updatedAt: new Date('2026-10-02T00:00:00Z'),
  searchText: 'example.com\nhttp://localhost:3000\n203.0.113.10',
};

describe('the API view of a configuration', () => {
  it('shows whether a password is stored, never the ciphertext', () => {
    const view = toProxyConfiguration(row, 'en');
    expect(view.hasSshPassword).toBe(true);
    expect(JSON.stringify(view)).not.toContain('ciphertext');
    expect(toProxyConfiguration({ ...row, sshPasswordEnc: null }, 'en').hasSshPassword).toBe(false);
  });

  it('counts only a password entered for where the configuration points now', () => {
    for (const moved of [{ serverIp: '203.0.113.6' }, { sshPort: 2222 }, { sshUser: 'deploy' }]) {
      expect(toProxyConfiguration({ ...row, ...moved }, 'en').hasSshPassword).toBe(false);
    }
    expect(toProxyConfiguration({ ...row, sshPasswordTarget: null }, 'en').hasSshPassword).toBe(
      false,
    );
  });

  it('is unchanged since deploy whatever the key order the database returns', () => {
    const snapshot = snapshotOf(row)!;
    const reordered = Object.fromEntries(Object.entries(snapshot).reverse()) as typeof snapshot;
    expect(changedSinceDeploy({ ...row, deployedSnapshot: reordered })).toBe(false);
    expect(changedSinceDeploy({ ...row, deployedSnapshot: { ...snapshot, sshPort: 2222 } })).toBe(
      true,
    );
    expect(changedSinceDeploy({ ...row, deployedSnapshot: null })).toBe(false);
  });
});

describe('audit differences', () => {
  it('lists changed fields with both values and a secret only as changed', () => {
    const changes = diffFields(
      { domain: 'a.example.com', sshPort: 22, sshPasswordEnc: 'old-secret' },
      { domain: 'b.example.com', sshPort: 22, sshPasswordEnc: 'new-secret' },
      ['domain', 'sshPort', 'sshPasswordEnc'],
      ['sshPasswordEnc'],
    );
    expect(changes).toEqual([
      { field: 'domain', before: 'a.example.com', after: 'b.example.com' },
      { field: 'sshPasswordEnc', before: null, after: AUDIT_SECRET_MARK },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/secret"/);
    // Removed (an edit that points the configuration elsewhere): marked, not recorded.
    expect(
      diffFields<{ sshPasswordEnc: string | null }>(
        { sshPasswordEnc: 'old-secret' },
        { sshPasswordEnc: null },
        ['sshPasswordEnc'],
        ['sshPasswordEnc'],
      ),
    ).toEqual([{ field: 'sshPasswordEnc', before: AUDIT_SECRET_MARK, after: null }]);
  });
});
