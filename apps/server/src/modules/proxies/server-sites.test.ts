// The engine's report of what is on a server, as the proxy's record holds it: an uploaded
// certificate (issue 41) is listed, and the columns lists read follow it.
import type { TServerSite } from '@portico/shared/proxy/server-record';
import { describe, expect, it } from 'vitest';
import type { TProxyConfigurationRow } from '../../db/schema';
import type { TSiteState } from '../../deploy/engine';
import { recordSite, toServerSite } from './server-sites';

const where = { serverIp: '198.51.100.7', sshPort: 22, sshUser: 'root' };
const at = new Date('2026-12-06T10:00:00.000Z');
const expiresAt = new Date('2027-01-01T00:00:00.000Z');
const state: TSiteState = {
  domain: 'app.example.com',
  files: ['/etc/nginx/sites-available/proxy-app.example.com'],
  enabled: true,
  https: true,
  certificate: null,
  uploaded: {
    path: '/etc/portico/certificates/app.example.com/0123456789abcdef/fullchain.pem',
    fingerprint: 'AB:CD',
    expiresAt,
  },
  unconfirmed: false,
};

describe('the record of an uploaded certificate', () => {
  it('lists its chain file, fingerprint and expiry; without one, no field at all', () => {
    expect(toServerSite(where, state, 'SHA256:x', at).uploaded).toEqual({
      path: state.uploaded!.path,
      fingerprint: 'AB:CD',
      expiresAt: expiresAt.toISOString(),
    });
    const { uploaded: _, ...certbot } = state;
    expect('uploaded' in toServerSite(where, certbot, 'SHA256:x', at)).toBe(false);
  });

  it('an HTTPS site serving it is SSL configured, with its expiry; a record with only the upload left is kept', async () => {
    const updates: Record<string, unknown>[] = [];
    const repository = {
      findById: async () => ({ serverSites: [] as TServerSite[] }) as TProxyConfigurationRow,
      update: async (_id: string, changes: Record<string, unknown>) => {
        updates.push(changes);
        return undefined;
      },
    };
    await recordSite(repository, 'p1', toServerSite(where, state, 'SHA256:x', at));
    expect(updates[0]).toMatchObject({ sslConfigured: true, certificateExpiresAt: expiresAt });
    const left = { ...state, files: [], enabled: false, https: false };
    await recordSite(repository, 'p1', toServerSite(where, left, 'SHA256:x', at));
    expect((updates[1]!.serverSites as TServerSite[]).map((s) => s.uploaded?.path)).toEqual([
      state.uploaded!.path,
    ]);
  });
});
