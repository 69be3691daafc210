import type { TSshServerRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { KeyedAppError } from '../../lib/app-error';
import type { TActor } from '../ssh-servers/server-access';
import type { TAdoptedSite } from '../ssh-servers/site-scan.service';
import { DomainTakenError } from './proxies.repository';
import type { TProxyWrites } from './proxies.service';
import { onServer } from './proxy-servers';

/**
 * Records sites adopted as they are (docs/PRODUCT.md#sites-on-this-server) as proxies of the
 * server's owner, all in one transaction with their audit rows and the owner's proxy limit:
 * either every name is recorded or none. Nothing is written to the server.
 */
export function createProxyAdoption(transaction: TTransaction<TProxyWrites>) {
  return async function adoptSites(
    actor: TActor,
    server: TSshServerRow,
    owner: { email: string },
    sites: TAdoptedSite[],
  ): Promise<string[]> {
    return transaction(async (tx) => {
      const ids: string[] = [];
      for (const site of sites) {
        await tx.limits.assertRoom(server.userId, 'proxies');
        let row: Awaited<ReturnType<typeof tx.repository.insert>>;
        try {
          row = await tx.repository.insert({
            userId: server.userId,
            domain: site.domain,
            ...onServer(server),
            hostKeyFingerprint: server.hostKeyFingerprint,
            email: owner.email,
            targetServer: site.target,
            status: 'completed',
            sslConfigured: site.certificatePath !== null,
            nginxConfigPath: site.file,
            certificateExpiresAt: site.certificateExpiresAt,
            origin: 'adopted',
            adoptedFile: site.file,
            adoptedSha256: site.fileSha256,
            adoptedFileText: site.fileText,
          });
        } catch (error) {
          if (error instanceof DomainTakenError) {
            throw new KeyedAppError('adopt_conflict', 409, 'sshServer.adoptTaken', {
              domain: site.domain,
            });
          }
          throw error;
        }
        await tx.audit.record(actor, {
          action: 'proxy.adopt',
          targetType: 'proxy_configuration',
          targetId: row.id,
          targetOwnerId: row.userId,
          changes: [
            { field: 'domain', before: null, after: site.domain },
            { field: 'adoptedFile', before: null, after: site.file },
            { field: 'adoptedSha256', before: null, after: site.fileSha256 },
            { field: 'targetServer', before: null, after: site.target },
          ],
        });
        ids.push(row.id);
      }
      return ids;
    });
  };
}
