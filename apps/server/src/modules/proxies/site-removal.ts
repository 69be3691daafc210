import type { TLanguage } from '@portico/shared/api-error';
import type { TServerSite } from '@portico/shared/proxy/api';
import type { TProxyConfigurationRow } from '../../db/schema';
import type { TProxiesServiceDeps } from './proxies.service';
import { proxyErrors } from './proxy-errors';
import { recordSite, toServerSite } from './server-sites';

// Failures meaning "the server could not be reached", for which the UI offers Portico-only delete.
const UNREACHABLE = new Set([
  'tcp_connect',
  'timeout',
  'auth_failed',
  'host_key_mismatch',
  'connection_lost',
  'sudo_refused',
]);

/**
 * Removal of one site the record says is on a server (delete with removal): where the record
 * says it was written, with the host key seen there, even if the configuration was edited
 * since; the record follows what the removal did, so a removal that fails half-way leaves it true.
 */
export function createSiteRemoval(
  deps: Pick<TProxiesServiceDeps, 'repository' | 'secrets' | 'settings' | 'removeSite'>,
) {
  const { repository, secrets } = deps;
  return async function removeRecordedSite(
    row: TProxyConfigurationRow,
    site: TServerSite,
    removeCertificate: boolean,
    language?: TLanguage,
  ) {
    if (!row.sshPasswordEnc) throw proxyErrors.needsPassword();
    const password = secrets.decryptPassword(row.id, row.sshPasswordEnc);
    // The site lives where the record says it was written, even if the row was edited since.
    const where = { serverIp: site.serverIp, sshPort: site.sshPort, sshUser: site.sshUser };
    const outcome = await deps.removeSite(
      {
        domain: site.domain,
        ...where,
        auth: { password },
        expectedFingerprint: site.hostKeyFingerprint ?? row.hostKeyFingerprint ?? undefined,
        removeCertificate,
      },
      {
        // The failure reason ends up in the caller's error message, so it speaks their language.
        settings: { ...deps.settings(), language },
        log: () => {},
        onSite: async (state, fingerprint) => {
          await recordSite(repository, row.id, toServerSite(where, state, fingerprint));
        },
      },
    );
    if (outcome.status === 'failed') {
      const { code, message } = outcome.failure;
      throw UNREACHABLE.has(code)
        ? proxyErrors.serverUnreachable(message)
        : proxyErrors.removeFailed(message);
    }
  };
}
