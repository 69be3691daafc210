import type { TSiteScan } from '@portico/shared/ssh-servers/site-scan';
import { connectSsh, SshError } from '../../deploy/ssh';
import { KeyedAppError } from '../../lib/app-error';
import { loadServer, type TActor } from './server-access';
import type { TServerCheckDeps } from './server-check.service';
import { openServerSession } from './server-session';
import { buildSiteScan, scannedNames } from './site-scan';
import { readScanAnswer, SCAN_SCRIPT, ScanAnswerError, type TScanAnswer } from './site-scan-script';

const CONNECT_TIMEOUT_MS = 15_000;
/** nginx -t and -T on a server with thousands of sites still take seconds, not minutes. */
const SCRIPT_TIMEOUT_MS = 60_000;

/** The check's login and writers, and a clock for the scan's time. */
export type TSiteScanDeps = TServerCheckDeps & { now?: () => Date };

export type TSiteScanService = ReturnType<typeof createSiteScanService>;

/** The server could not be reached or would not let the scan run as root: said in its words. */
export function scanRefusedError(error: SshError): KeyedAppError {
  if (!error.text) return new KeyedAppError('scan_failed', 502, 'sshServer.checkFailed');
  return new KeyedAppError(
    'scan_failed',
    502,
    `deployLog.ssh.${error.text.key}`,
    error.text.params ?? {},
  );
}

/**
 * "Sites on this server" (POST /api/ssh-servers/{id}/scan): one login, one exec of the
 * read-only SCAN_SCRIPT as root, the answer read as hostile (site-scan-script.ts, site-scan.ts)
 * and classified against the proxies Portico holds. The server is never written to; Portico
 * writes only its audit row and, for sites adopted on this server, whether the file changed.
 */
export function createSiteScanService(deps: TSiteScanDeps) {
  const { repository, transaction } = deps;
  const connect = deps.connect ?? connectSsh;
  const now = deps.now ?? (() => new Date());

  async function readServer(actor: TActor, id: string): Promise<TScanAnswer> {
    const row = await loadServer(repository, actor, id);
    try {
      const session = await openServerSession(
        { ...deps, connect, timeoutMs: deps.timeoutMs ?? CONNECT_TIMEOUT_MS },
        row,
      );
      try {
        const answer = await session.run(SCAN_SCRIPT, { sudo: true, timeoutMs: SCRIPT_TIMEOUT_MS });
        return readScanAnswer(answer.stdout);
      } finally {
        session.close();
      }
    } catch (error) {
      if (error instanceof ScanAnswerError) {
        throw new KeyedAppError('scan_unreadable', 502, 'sshServer.scanUnreadable');
      }
      if (error instanceof SshError) throw scanRefusedError(error);
      throw error;
    }
  }

  return {
    readServer,

    async scan(actor: TActor, id: string): Promise<TSiteScan> {
      const answer = await readServer(actor, id);
      const row = await loadServer(repository, actor, id);
      const proxies = await repository.proxiesForDomains(scannedNames(answer.dump));
      const scan = buildSiteScan(answer, {
        serverId: id,
        viewerId: actor.id,
        viewerIsAdmin: actor.role === 'admin',
        proxies,
        now: now(),
      });
      await transaction(async (tx) => {
        for (const site of scan.sites) {
          const proxy = proxies.find((p) => p.domain === site.serverName);
          if (proxy?.origin !== 'adopted' || proxy.sshServerId !== id) continue;
          await tx.repository.markAdoptedChange(proxy.id, site.changedSinceAdoption ? now() : null);
        }
        await tx.audit.record(actor, {
          action: 'ssh_server.scan',
          targetType: 'ssh_server',
          targetId: id,
          targetOwnerId: row.userId,
          changes: [
            { field: 'sites', before: null, after: scan.sites.length },
            { field: 'nginxTest', before: null, after: scan.nginxTest.ok ? 'ok' : 'failed' },
          ],
        });
      });
      return scan;
    },
  };
}
