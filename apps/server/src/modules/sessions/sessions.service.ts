import type { TSessionInfo } from '@portico/shared/auth/account';
import type { FastifyRequest } from 'fastify';
import type { TUserRow } from '../../db/schema';
import type { TTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { accountAudit } from '../audit/account-audit';
import type { TAuditService } from '../audit/audit.service';
import type { TTokensRepository } from '../tokens/tokens.repository';
import type { TSessionEnds } from './session-ends';
import { sessionPublicId, sessionWrittenAt } from './session-info';
import type { TSessionsRepository } from './sessions.repository';
import { parseUserAgent } from './user-agent';

export type TAccountSessions = ReturnType<typeof createAccountSessions>;

/** The caller's side of it: whose sessions, which one is theirs, how the store ends one. */
export interface TSessionCaller {
  user: TUserRow;
  currentSid: string;
  destroy(sid: string): Promise<void>;
}

export function sessionCaller(request: FastifyRequest): TSessionCaller {
  return {
    user: request.user!,
    currentSid: request.session.sessionId,
    // The store also forgets any copy it keeps in memory.
    destroy: (sid) => request.sessionStore.destroy(sid),
  };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** "Last seen": when the rolling session's row was last written, to within a minute. */
function lastSeen(sess: Record<string, unknown>, expire: Date): string | null {
  const at = sessionWrittenAt(sess, expire.getTime());
  return at === null ? null : new Date(at).toISOString();
}

/** What ending sessions writes: the session rows and the audit row, together or not at all. */
export interface TSessionWrites {
  sessions: TSessionsRepository;
  audit: TAuditService;
}

/** What ending everything signed in elsewhere writes: the sessions and, when asked, the tokens. */
export interface TElsewhereWrites extends TSessionWrites {
  tokens: Pick<TTokensRepository, 'removeAllForUser'>;
}

/** What a new password or a newly enabled second factor ended besides the caller's session. */
export interface TEndedElsewhere {
  sids: string[];
  revokedTokens: number;
}

/** The audit row's fields for it. */
export function endedElsewhereChanges(ended: TEndedElsewhere) {
  return [
    { field: 'sessionsEnded', before: null, after: ended.sids.length },
    { field: 'tokensRevoked', before: null, after: ended.revokedTokens },
  ];
}

/** One's own signed-in sessions: list them, end one, end all others (and their sockets). */
export function createAccountSessions(deps: {
  repository: TSessionsRepository;
  transaction: TTransaction<TSessionWrites>;
  sessionEnds: TSessionEnds;
}) {
  /**
   * After the rows were deleted and that committed: the session store forgets its copies (its
   * destroy; the row is already gone) and the sessions' log sockets close at once.
   */
  async function ended(caller: TSessionCaller, sids: string[]): Promise<void> {
    for (const sid of sids) await caller.destroy(sid);
    deps.sessionEnds.publish(sids);
  }

  /** Inside the caller's transaction: deletes the account's other sessions; the ones it ended. */
  async function removeOthers(tx: TSessionWrites, caller: TSessionCaller): Promise<string[]> {
    const rows = await tx.sessions.listForUser(caller.user.id);
    return tx.sessions.removeMany(
      rows.map((row) => row.sid).filter((sid) => sid !== caller.currentSid),
    );
  }

  return {
    async list(caller: TSessionCaller): Promise<TSessionInfo[]> {
      const rows = await deps.repository.listForUser(caller.user.id);
      const sessions = rows.map(({ sid, sess, expire }) => ({
        id: sessionPublicId(sid),
        ...parseUserAgent(text(sess.userAgent)),
        ip: text(sess.ip),
        signedInAt: text(sess.signedInAt),
        lastSeenAt: lastSeen(sess, expire),
        current: sid === caller.currentSid,
      }));
      // This one first, then the most recently used.
      return sessions.sort(
        (a, b) =>
          Number(b.current) - Number(a.current) ||
          (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''),
      );
    },

    /** Ends another of one's sessions; this one ends by signing out. */
    async endOne(caller: TSessionCaller, publicId: string): Promise<void> {
      const rows = await deps.repository.listForUser(caller.user.id);
      const row = rows.find((r) => sessionPublicId(r.sid) === publicId);
      if (!row) throw new AppError('not_found', 404);
      if (row.sid === caller.currentSid) throw new AppError('session_current', 409);
      const { browser, os } = parseUserAgent(text(row.sess.userAgent));
      const sids = await deps.transaction(async (tx) => {
        const removed = await tx.sessions.removeMany([row.sid]);
        // Ended meanwhile (signed out, expired): nothing ended here, so nothing is recorded.
        if (removed.length === 0) throw new AppError('not_found', 404);
        await accountAudit(tx.audit, caller.user, 'account.session_end', {
          changes: [
            {
              field: 'session',
              before: [browser, os, text(row.sess.ip)].filter(Boolean).join(', ') || publicId,
              after: null,
            },
          ],
        });
        return removed;
      });
      await ended(caller, sids);
    },

    /** Every session of the account but the caller's; how many ended. */
    async endOthers(caller: TSessionCaller): Promise<number> {
      const sids = await deps.transaction(async (tx) => {
        const removed = await removeOthers(tx, caller);
        await accountAudit(tx.audit, caller.user, 'account.sessions_end_others', {
          changes: [{ field: 'sessionsEnded', before: null, after: removed.length }],
        });
        return removed;
      });
      await ended(caller, sids);
      return sids.length;
    },

    /**
     * Inside the caller's transaction: a new proof of identity (password, second factor) ends
     * every other session and, unless the caller keeps them, every API token, so whoever got in
     * with the old proof alone is out. The caller's own session stays.
     */
    async endElsewhere(
      tx: TElsewhereWrites,
      caller: TSessionCaller,
      revokeTokens: boolean,
    ): Promise<TEndedElsewhere> {
      const sids = await removeOthers(tx, caller);
      const revokedTokens = revokeTokens ? await tx.tokens.removeAllForUser(caller.user.id) : 0;
      return { sids, revokedTokens };
    },

    ended,
  };
}
