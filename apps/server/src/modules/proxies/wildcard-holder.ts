import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TProxyConfigurationRow } from '../../db/schema';
import { KeyedAppError } from '../../lib/app-error';
import type { TProxiesRepository } from './proxies.repository';

/**
 * A wildcard proxy whose certificate other proxies are served with (issue 41) keeps its domain
 * and its server while they do: removing it, or moving it, would take their certificate's
 * renewals (or the certificate) away. `next` is where an edit would put it; without it the
 * proxy is being removed. The refusal names the proxies (a few of them) to move off it first.
 */
export async function refuseWhileWildcardShared(
  repository: Pick<TProxiesRepository, 'wildcardUsers'>,
  row: Pick<TProxyConfigurationRow, 'id' | 'domain' | 'serverIp'>,
  next?: { domain: string; serverIp: string },
): Promise<void> {
  if (!isWildcard(row.domain)) return;
  const stays =
    next !== undefined &&
    next.domain.toLowerCase() === row.domain.toLowerCase() &&
    next.serverIp === row.serverIp;
  if (stays) return;
  const users = await repository.wildcardUsers(row.id);
  if (users.length === 0) return;
  throw new KeyedAppError('wildcard_in_use', 409, 'certificates.wildcard.inUse', {
    domain: row.domain,
    proxies: users.join(', '),
  });
}
