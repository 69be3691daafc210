import {
  siteHasCertificate,
  siteHasTraces,
  type TServerSite,
} from '@portico/shared/proxy/server-record';
import type { TProxyConfigurationRow } from '../../db/schema';
import type { TSiteState } from '../../deploy/engine';
import type { TProxiesRepository, TProxyChanges } from './proxies.repository';

/** The server a run or a removal talks to, as the configuration named it. */
export type TSiteWhere = Pick<TServerSite, 'serverIp' | 'sshPort' | 'sshUser'>;

function sameSite(a: TServerSite, b: TServerSite): boolean {
  return a.serverIp === b.serverIp && a.sshPort === b.sshPort && a.domain === b.domain;
}

/** The engine's report as a record entry: where, what, and when. */
export function toServerSite(
  where: TSiteWhere,
  state: TSiteState,
  hostKeyFingerprint: string,
  at: Date = new Date(),
): TServerSite {
  return {
    ...where,
    hostKeyFingerprint,
    domain: state.domain,
    files: state.files,
    enabled: state.enabled,
    https: state.https,
    certificate: state.certificate && {
      name: state.certificate.name,
      expiresAt: state.certificate.expiresAt?.toISOString() ?? null,
    },
    ...(state.uploaded
      ? {
          uploaded: {
            path: state.uploaded.path,
            fingerprint: state.uploaded.fingerprint,
            expiresAt: state.uploaded.expiresAt?.toISOString() ?? null,
          },
        }
      : {}),
    unconfirmed: state.unconfirmed,
    checkedAt: at.toISOString(),
  };
}

/**
 * The record with `entry` in place of the same server and domain's entry (last, as the newest);
 * an entry with nothing left on the server leaves the record.
 */
function mergeSite(sites: readonly TServerSite[], entry: TServerSite): TServerSite[] {
  const others = sites.filter((s) => !sameSite(s, entry));
  return siteHasTraces(entry) ? [...others, entry] : others;
}

/**
 * The columns that summarise the record for lists and older readers, from its newest entry:
 * SSL is configured when an enabled HTTPS site and its certificate are there.
 */
function mirrorOf(
  sites: readonly TServerSite[],
): Pick<TProxyChanges, 'sslConfigured' | 'nginxConfigPath' | 'certificateExpiresAt'> {
  const newest = sites.at(-1);
  if (!newest) return { sslConfigured: false, nginxConfigPath: null, certificateExpiresAt: null };
  // An uploaded certificate is the one served while it is there (the site names it).
  const expiresAt = newest.uploaded?.expiresAt ?? newest.certificate?.expiresAt;
  return {
    sslConfigured: newest.enabled && newest.https && siteHasCertificate(newest),
    nginxConfigPath: newest.files.find((f) => !f.startsWith('/etc/nginx/sites-enabled/')) ?? null,
    certificateExpiresAt: expiresAt ? new Date(expiresAt) : null,
  };
}

/** Records what the engine reported for a configuration; answers the updated row. */
export async function recordSite(
  repository: Pick<TProxiesRepository, 'findById' | 'update'>,
  id: string,
  entry: TServerSite,
): Promise<TProxyConfigurationRow | undefined> {
  const row = await repository.findById(id);
  if (!row) return undefined;
  const serverSites = mergeSite(row.serverSites, entry);
  return repository.update(id, { serverSites, ...mirrorOf(serverSites) });
}
