import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The session cookie's name (the session plugin sets it; signing out clears it). */
export const SESSION_COOKIE = 'portico.sid';

declare module 'fastify' {
  interface Session {
    /** When and from where this session signed in, for the settings page's session list. */
    signedInAt?: string;
    ip?: string;
    userAgent?: string;
    /**
     * The password was right and the account has two-factor on: who is signing in and since
     * when (ms). No userId yet, so nothing but the second step accepts this session.
     */
    twoFactorPending?: { userId: string; since: number };
  }
}

/**
 * Starts a fresh session for the user: a new id, so a session fixed before sign-in is useless;
 * what the session list shows is recorded with it.
 */
export async function startSession(request: FastifyRequest, userId: string): Promise<void> {
  await request.session.regenerate();
  request.session.userId = userId;
  request.session.signedInAt = new Date().toISOString();
  request.session.ip = request.ip;
  request.session.userAgent = request.headers['user-agent']?.slice(0, 512);
}

/** How a session is named to its owner: a digest of its id, never the id (half of the cookie). */
export function sessionPublicId(sid: string): string {
  return createHash('sha256').update(`session:${sid}`).digest('hex').slice(0, 32);
}

/**
 * When a session's row was last written (ms since the epoch): its expiry less the lifetime it
 * was given then. A rolling session's row is written when its data changes and otherwise at most
 * once a minute (plugins/session.ts), so this is also when it was last used, to within that
 * minute. null when the row does not tell (rows that @fastify/session wrote do).
 */
export function sessionWrittenAt(sess: Record<string, unknown>, expireMs: number): number | null {
  const maxAge = (sess.cookie as { originalMaxAge?: unknown } | undefined)?.originalMaxAge;
  return Number.isFinite(expireMs) && typeof maxAge === 'number' ? expireMs - maxAge : null;
}
