import type {
  TAdoptSitesAnswer,
  TScannedSite,
  TSiteScan,
} from '@portico/shared/ssh-servers/site-scan';
import type { TSshServerRow } from '../../db/schema';
import { splitDump } from '../../deploy/nginx-config';
import { connectSsh, SshError } from '../../deploy/ssh';
import { KeyedAppError } from '../../lib/app-error';
import { adoptedFilesOn, adoptedInScan, recordAdoptedFiles } from './adopted-look';
import { loadServer, type TActor } from './server-access';
import type { TServerCheckDeps } from './server-check.service';
import { openServerSession } from './server-session';
import { buildSiteScan, scannedNames } from './site-scan';
import { readScanAnswer, SCAN_SCRIPT, ScanAnswerError, type TScanAnswer } from './site-scan-script';

const CONNECT_TIMEOUT_MS = 15_000;
/** nginx -t and -T on a server with thousands of sites still take seconds, not minutes. */
const SCRIPT_TIMEOUT_MS = 60_000;

/** A site as adoption records it: what the scan read, the file's text as scanned. */
export interface TAdoptedSite {
  domain: string;
  target: string;
  file: string;
  fileSha256: string;
  fileText: string;
  certificatePath: string | null;
  certificateExpiresAt: Date | null;
}

/**
 * The check's login and writers, a clock for the scan's time, and the proxies' recording of
 * adopted sites (given by services.ts: modules do not import each other).
 */
export type TSiteScanDeps = TServerCheckDeps & {
  now?: () => Date;
  adoptSites?: (
    actor: TActor,
    server: TSshServerRow,
    owner: { email: string },
    sites: TAdoptedSite[],
  ) => Promise<string[]>;
};

/** A file's text is kept for the details page up to this long. */
const MAX_FILE_TEXT = 64 * 1024;

/** Why a name cannot be adopted, in the words the user reads; nothing is recorded then. */
function adoptRefusal(site: TScannedSite | undefined, domain: string): KeyedAppError | null {
  if (!site)
    return new KeyedAppError('adopt_not_found', 404, 'sshServer.adoptNotFound', { domain });
  if (site.class === 'broken')
    return new KeyedAppError('adopt_broken', 409, 'sshServer.adoptBroken');
  if (site.class === 'conflict' && site.reason === 'served_twice') {
    return new KeyedAppError('adopt_conflict', 409, 'sshServer.adoptServedTwice', { domain });
  }
  if (site.class === 'conflict' || site.class === 'adopted') {
    return new KeyedAppError('adopt_conflict', 409, 'sshServer.adoptTaken', { domain });
  }
  if (site.class !== 'adoptable' || !site.target || !site.fileSha256) {
    return new KeyedAppError('adopt_not_proxy', 409, 'sshServer.adoptNotProxy', { domain });
  }
  return null;
}

/** The file as the dump holds it: printable text only, bounded. */
function fileTextOf(dump: string, path: string): string {
  const file = splitDump(dump).find((f) => f.path === path);
  // nginx -T follows each file with blank lines of its own.
  return (file?.text ?? '')
    .replace(/\n+$/, '\n')
    .replace(/[^\x20-\x7e\n\t\u00a0-\uffff]/g, '')
    .slice(0, MAX_FILE_TEXT);
}

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
 * writes only its audit row and, for sites adopted on this server, whether the file changed
 * or is gone (adopted-look.ts, as Check now records it).
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

  /** The server read now and classified against the proxies Portico holds now. */
  async function freshScan(actor: TActor, id: string) {
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
    return { row, answer, proxies, scan };
  }

  return {
    /**
     * "Adopt as it is" (POST /api/ssh-servers/{id}/adopt): the server is scanned again, so what
     * is recorded is what is there now; every name must be adoptable or nothing is recorded.
     */
    async adopt(actor: TActor, id: string, names: string[]): Promise<TAdoptSitesAnswer> {
      if (!deps.adoptSites) throw new Error('adoption is not wired');
      const { row, answer, scan } = await freshScan(actor, id);
      const unique = [...new Set(names)];
      const sites: TAdoptedSite[] = [];
      for (const domain of unique) {
        const site = scan.sites.find((s) => s.serverName === domain);
        const refusal = adoptRefusal(site, domain);
        if (refusal) throw refusal;
        sites.push({
          domain,
          target: site!.target!,
          file: site!.file,
          fileSha256: site!.fileSha256!,
          fileText: fileTextOf(answer.dump, site!.file),
          certificatePath: site!.certificatePath,
          certificateExpiresAt: site!.certificateExpiresAt
            ? new Date(site!.certificateExpiresAt)
            : null,
        });
      }
      const owner = { email: await deps.owners.emailOf(row.userId) };
      const ids = await deps.adoptSites(actor, row, owner, sites);
      return { adopted: sites.map((site, i) => ({ serverName: site.domain, proxyId: ids[i]! })) };
    },

    async scan(actor: TActor, id: string): Promise<TSiteScan> {
      const { row, answer, scan } = await freshScan(actor, id);
      const { adopted, files } = await adoptedFilesOn(repository, id);
      const states = adoptedInScan(answer, files);
      const at = now();
      await transaction(async (tx) => {
        await recordAdoptedFiles(tx.repository, adopted, states, at);
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
