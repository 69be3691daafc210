import type { TSessionInfo } from '@portico/shared/auth/account';
import type { FastifyRequest } from 'fastify';
import type { TUserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { accountAudit } from '../audit/account-audit';
import type { TAuditService } from '../audit/audit.service';
import type { TSessionEnds } from './session-ends';
import { destroyStoredSession, sessionPublicId } from './session-info';
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
    destroy: (sid) => destroyStoredSession(request, sid),
  };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * A rolling session's row expires one lifetime after it was last used (the store writes it at
 * most once a minute), so "last seen" is the expiry minus the lifetime, to within that minute.
 */
function lastSeen(sess: Record<string, unknown>, expire: Date): string | null {
  const maxAge = (sess.cookie as { originalMaxAge?: unknown } | undefined)?.originalMaxAge;
  return typeof maxAge === 'number' ? new Date(expire.getTime() - maxAge).toISOString() : null;
}

/** One's own signed-in sessions: list them, end one, end all others (and their sockets). */
export function createAccountSessions(deps: {
  repository: TSessionsRepository;
  audit: TAuditService;
  sessionEnds: TSessionEnds;
}) {
  async function end(caller: TSessionCaller, sids: string[]): Promise<void> {
    for (const sid of sids) await caller.destroy(sid);
    deps.sessionEnds.publish(sids);
  }

  async function otherSids(caller: TSessionCaller): Promise<string[]> {
    const rows = await deps.repository.listForUser(caller.user.id);
    return rows.map((row) => row.sid).filter((sid) => sid !== caller.currentSid);
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
      await end(caller, [row.sid]);
      const { browser, os } = parseUserAgent(text(row.sess.userAgent));
      await accountAudit(deps.audit, caller.user, 'account.session_end', {
        changes: [
          {
            field: 'session',
            before: [browser, os, text(row.sess.ip)].filter(Boolean).join(', ') || publicId,
            after: null,
          },
        ],
      });
    },

    /** Every session of the account but the caller's; how many ended. */
    async endOthers(caller: TSessionCaller, options: { audit: boolean }): Promise<number> {
      const sids = await otherSids(caller);
      await end(caller, sids);
      if (options.audit) {
        await accountAudit(deps.audit, caller.user, 'account.sessions_end_others', {
          changes: [{ field: 'sessionsEnded', before: null, after: sids.length }],
        });
      }
      return sids.length;
    },
  };
}
