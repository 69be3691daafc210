import type { TSshServerCheck } from '@portico/shared/ssh-servers/schemas';
import { sshAddressProblem } from '@portico/shared/validation/reachability';
import type { TSshServerRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { connectSsh, SshError, type TSshSession } from '../../deploy/ssh';
import { KeyedAppError } from '../../lib/app-error';
import type { TAuditService } from '../audit/audit.service';
import { lookAtAdoptedFiles } from './adopted-look';
import { loadServer, serverView, type TActor, type TServerOwnerReads } from './server-access';
import type { TServerCredentials } from './server-credentials';
import { FACTS_SCRIPT, FactsAnswerError, parseFacts } from './server-facts';
import { openServerSession } from './server-session';
import { sshServerErrors } from './ssh-server-errors';
import type { TSshServersRepository } from './ssh-servers.repository';

const CHECK_TIMEOUT_MS = 15_000;
/** The facts script reads a few files and versions; it never needs long. */
const SCRIPT_TIMEOUT_MS = 30_000;

export interface TServerCheckDeps {
  repository: TSshServersRepository;
  credentials: TServerCredentials;
  transaction: TTransaction<{ repository: TSshServersRepository; audit: TAuditService }>;
  /** The owner's name on the view, its e-mail on adopted sites (the users module's reads). */
  owners: TServerOwnerReads;
  /** 127.0.0.0/8 may be reached (PORTICO_SSH_ALLOW_LOOPBACK), as for the SSH test. */
  allowLoopback?: boolean;
  connect?: typeof connectSsh;
  timeoutMs?: number;
}

export type TServerCheckService = ReturnType<typeof createServerCheckService>;

/**
 * "Check now" (POST /api/ssh-servers/{id}/check) and "forget key": one login with the saved
 * credential against the pinned host key, one exec of the read-only FACTS_SCRIPT, and the
 * answer stored on the row, so the list shows reachable / last checked without a round trip;
 * with adopted sites on the server, one more read-only exec looks at their files (adopted-look.ts).
 */
export function createServerCheckService(deps: TServerCheckDeps) {
  const { repository, transaction } = deps;
  const connect = deps.connect ?? connectSsh;

  /**
   * One login with the saved credential against the pinned key (pinned here on first contact),
   * one exec of FACTS_SCRIPT, and what it found stored on the row: the facts with `reachable`,
   * or unreachable with why. A changed host key and an answer that is not the script's throw.
   */
  async function readFacts(
    row: TSshServerRow,
    signal?: AbortSignal,
  ): Promise<{ stored: TSshServerRow; text: TSshServerCheck['text'] }> {
    const unreachable = async (error: SshError) => {
      const stored = await repository.update(row.id, {
        reachable: false,
        lastCheckedAt: new Date(),
      });
      const text = error.text
        ? { key: `deployLog.ssh.${error.text.key}`, params: error.text.params ?? {} }
        : { key: 'sshServer.checkFailed', params: {} };
      return { stored: stored ?? row, text };
    };
    let session: TSshSession;
    try {
      session = await openServerSession(
        { ...deps, connect, timeoutMs: deps.timeoutMs ?? CHECK_TIMEOUT_MS },
        row,
        signal,
      );
    } catch (error) {
      if (error instanceof SshError) return unreachable(error);
      throw error;
    }
    try {
      const answer = await session.run(FACTS_SCRIPT, { timeoutMs: SCRIPT_TIMEOUT_MS });
      const facts = parseFacts(answer.stdout);
      await lookAtAdoptedFiles(repository, session, row.id, new Date());
      const stored = await repository.update(row.id, {
        reachable: true,
        lastCheckedAt: new Date(),
        facts,
      });
      return { stored: stored ?? row, text: null };
    } catch (error) {
      if (error instanceof FactsAnswerError) {
        throw new KeyedAppError('facts_unreadable', 502, 'sshServer.factsUnreadable');
      }
      if (error instanceof SshError) return unreachable(error);
      throw error;
    } finally {
      session.close();
    }
  }

  return {
    async check(actor: TActor, id: string): Promise<TSshServerCheck> {
      const row = await loadServer(repository, actor, id);
      const { stored, text } = await readFacts(row);
      return { server: await serverView(repository, deps.owners, stored, actor), text };
    },

    /**
     * The facts read again after a deployment on the server succeeded (no actor: the run's own
     * follow-up), so the server page never shows what the deploy just changed as it was. A server
     * gone, or at a loopback address Portico may not reach, is left as it is.
     */
    async refreshFacts(id: string, signal?: AbortSignal): Promise<void> {
      const row = await repository.findById(id);
      if (!row) return;
      if (sshAddressProblem(row.host) === 'loopback' && !deps.allowLoopback) return;
      await readFacts(row, signal);
    },

    /** The next contact pins whatever key the server presents (owner or admin; audited). */
    async forgetHostKey(actor: TActor, id: string) {
      const row = await loadServer(repository, actor, id);
      const updated = await transaction(async (tx) => {
        const written = await tx.repository.forgetHostKey(id);
        if (!written) throw sshServerErrors.notFound();
        await tx.audit.record(actor, {
          action: 'ssh_server.forget_host_key',
          targetType: 'ssh_server',
          targetId: id,
          targetOwnerId: row.userId,
          changes: [{ field: 'hostKeyFingerprint', before: row.hostKeyFingerprint, after: null }],
        });
        return written;
      });
      return serverView(repository, deps.owners, updated, actor);
    },
  };
}
