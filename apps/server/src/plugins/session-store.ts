import type { TUserRow } from '../db/schema';
import { sessionWrittenAt } from '../modules/sessions/session-info';
import type { TSessionsRepository } from '../modules/sessions/sessions.repository';
import { sessionDataOf, type TSessionRead } from './session-object';

export interface TSessionStoreOptions {
  /**
   * Keep sessions in memory as well (what is written and read here). Only correct when this process is the sole
   * writer of the table: true on PGlite, whose data-dir lock guarantees it; false on PostgreSQL,
   * where another instance may destroy a session.
   */
  cache?: boolean;
}

const CACHE_LIMIT = 10_000;

/** An account read in the same query as a session: the session's userId then, and its row. */
export interface TLoadedUser {
  userId: string | undefined;
  /** null when the session named no account, or one that no longer exists. */
  user: TUserRow | null;
  /** How often the account's configurations had changed then (db/schema/answer-versions.ts). */
  proxiesVersion: number;
  /** How often their log lines, or which configurations it owns, had changed then. */
  logsVersion: number;
  /** The database's snapshot when they were read (`pg_current_snapshot()`). */
  snapshot: string;
}

/** A session as the table keeps it: its data, and the cookie's expiry. */
export type TStoredSession = Record<string, unknown> & { cookie?: TStoredCookie };

/** A live session as read: shared by every request of it, so never changed. */
export interface TFoundSession {
  /** Its data, without the cookie (a PorticoSession copies it). */
  read: TSessionRead;
  /** When it expires (ms since the epoch). */
  expire: number;
  /** When its row was last written (modules/sessions/session-info.ts); null if unknown. */
  writtenAt: number | null;
}

function foundSession(stored: TStoredSession, expire: number): TFoundSession {
  return { read: sessionDataOf(stored), expire, writtenAt: sessionWrittenAt(stored, expire) };
}

export interface TPorticoSessionStore {
  /**
   * The live session `sid` (null when there is none), and the account read with it when it came
   * from the table (not from this process's memory).
   */
  get(
    sid: string,
    callback: (error: unknown, found: TFoundSession | null, loaded?: TLoadedUser) => void,
  ): void;
  /**
   * Keeps `data` until `expires`. A session read from the table (`stored`) is only updated:
   * `kept` is false when it was ended meanwhile, and nothing is written then.
   */
  set(
    sid: string,
    data: Record<string, unknown>,
    options: { expires: Date; maxAgeMs: number; stored: boolean },
    callback: (error?: unknown, kept?: boolean) => void,
  ): void;
  /** Ends the session in the table and in this process's memory. */
  destroy(sid: string): Promise<void>;
}

type TStoredCookie = { originalMaxAge?: number | null; expires?: string | Date | null };

/**
 * The sessions' store on the `session` table (plugins/session.ts decides when to write). Only the
 * data and the expiry are persisted: the cookie flags (Secure, SameSite, HttpOnly) are decided on
 * every response, so a session first created over plain HTTP does not keep `secure: false`
 * forever.
 */
export function createSessionStore(
  repository: TSessionsRepository,
  options: TSessionStoreOptions = {},
): TPorticoSessionStore {
  // sid -> the session as read; its data is copied by each request's PorticoSession.
  const cache = options.cache ? new Map<string, TFoundSession>() : null;
  // Bumped before and after every write here: a read that overlapped one is not kept, so a
  // destroyed session never comes back from the cache.
  let writes = 0;
  // A row as read -> the session made of it.
  const parsed = new WeakMap<object, TFoundSession>();

  function cacheSet(sid: string, found: TFoundSession) {
    if (!cache) return;
    if (cache.size > CACHE_LIMIT) cache.clear();
    cache.set(sid, found);
  }

  return {
    set(sid, data, { expires, maxAgeMs, stored }, callback) {
      const sess = {
        ...data,
        cookie: { originalMaxAge: maxAgeMs, expires: expires.toISOString() },
      };
      writes += 1;
      // A session read from the table is only ever updated: if it was ended (signed out, ended
      // from another device, by an admin, expired) while this request ran, it stays ended.
      const written = stored
        ? repository.update(sid, sess, expires)
        : repository.upsert(sid, sess, expires).then(() => true);
      written.then(
        (kept) => {
          writes += 1;
          // Through JSON, as a read from the table would be: nothing shared with the request.
          if (kept)
            cacheSet(sid, foundSession(JSON.parse(JSON.stringify(sess)), expires.getTime()));
          else cache?.delete(sid);
          callback(undefined, kept);
        },
        (error) => {
          writes += 1;
          cache?.delete(sid);
          callback(error);
        },
      );
    },

    get(sid, callback) {
      const hit = cache?.get(sid);
      if (hit && hit.expire > Date.now()) {
        callback(null, hit);
        return;
      }
      const writesBefore = writes;
      repository.findWithUser(sid).then(
        (found) => {
          if (!found) return callback(null, null);
          const expire = Date.parse(String((found.sess.cookie as TStoredCookie)?.expires));
          // The requests of one session that came together share the row read for them
          // (db/batched-reads.ts): its data is parsed once for all of them.
          let session = parsed.get(found);
          if (!session) {
            session = foundSession(found.sess, expire);
            parsed.set(found, session);
          }
          if (writes === writesBefore && Number.isFinite(expire)) cacheSet(sid, session);
          const userId = typeof found.sess.userId === 'string' ? found.sess.userId : undefined;
          callback(null, session, {
            userId,
            user: found.user,
            proxiesVersion: found.proxiesVersion ?? 0,
            logsVersion: found.logsVersion ?? 0,
            snapshot: found.snapshot,
          });
        },
        (error) => callback(error, null),
      );
    },

    async destroy(sid) {
      writes += 1;
      cache?.delete(sid);
      try {
        await repository.remove(sid);
      } finally {
        writes += 1;
        cache?.delete(sid);
      }
    },
  };
}
