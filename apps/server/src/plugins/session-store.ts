import type { SessionStore } from '@fastify/session';
import type { TUserRow } from '../db/schema';
import type { TSessionsRepository } from '../modules/sessions/sessions.repository';

const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

export interface TSessionStoreOptions {
  /** A rolling session is re-written at most this often when its data did not change. */
  touchAfterMs?: number;
  /**
   * Keep sessions in memory as well (what is written and read here). Only correct when this process is the sole
   * writer of the table: true on PGlite, whose data-dir lock guarantees it; false on PostgreSQL,
   * where another instance may destroy a session.
   */
  cache?: boolean;
}

const CACHE_LIMIT = 10_000;

/**
 * Marks a session handed out by `get`: @fastify/session copies it onto the request's session and
 * back into `set`, which tells that way a session read from the table from a new one. Never
 * written to the table.
 */
const STORED = '_stored';

/** An account read in the same query as a session: the session's userId then, and its row. */
export interface TLoadedUser {
  userId: string | undefined;
  /** null when the session named no account, or one that no longer exists. */
  user: TUserRow | null;
  /** How often the account's own rows had changed then (db/schema/answer-versions.ts). */
  answersVersion: number;
  /** The database's snapshot when they were read (`pg_current_snapshot()`). */
  snapshot: string;
}

export type TPorticoSessionStore = SessionStore & {
  /**
   * The account read together with session `sid` by the `get` whose callback is running now, so
   * that the request being set up need not read it again; undefined when the session did not
   * come from the table (the cache) or outside that callback.
   */
  userLoadedWith(sid: string): TLoadedUser | undefined;
};

type TStoredCookie = { originalMaxAge?: number | null; expires?: string | Date | null };

/**
 * @fastify/session store on the `session` table. Only the data and the expiry are persisted: the
 * cookie flags (Secure, SameSite, HttpOnly) come from the plugin options on every request, so a
 * session first created over plain HTTP does not keep `secure: false` forever.
 *
 * With rolling sessions every request would otherwise write the row; an unchanged session is
 * re-written at most once per `touchAfterMs`, so the row's expiry lags the cookie by that much.
 */
export function createSessionStore(
  repository: TSessionsRepository,
  options: TSessionStoreOptions = {},
): TPorticoSessionStore {
  const touchAfterMs = options.touchAfterMs ?? 60_000;
  const lastWrite = new Map<string, { data: string; at: number }>();
  // sid -> the stored JSON and its expiry; parsed on every read so callers never share objects.
  const cache = options.cache ? new Map<string, { json: string; expire: number }>() : null;
  // Bumped before and after every write here: a read that overlapped one is not kept, so a
  // destroyed session never comes back from the cache.
  let writes = 0;
  const loadedWith = new Map<string, TLoadedUser>();

  function remember(sid: string, data: string) {
    if (lastWrite.size > CACHE_LIMIT) lastWrite.clear();
    lastWrite.set(sid, { data, at: Date.now() });
  }

  function cacheSet(sid: string, sess: Record<string, unknown>, expire: Date) {
    if (!cache) return;
    if (cache.size > CACHE_LIMIT) cache.clear();
    cache.set(sid, { json: JSON.stringify(sess), expire: expire.getTime() });
  }

  return {
    set(sid, sessionObject, callback) {
      const {
        cookie,
        [STORED]: wasStored,
        ...data
      } = sessionObject as unknown as Record<string, unknown> & { cookie: TStoredCookie };
      const expires = cookie?.expires ? new Date(cookie.expires) : null;
      const expire = expires ?? new Date(Date.now() + DEFAULT_TTL_MS);
      const serialized = JSON.stringify(data);
      const previous = lastWrite.get(sid);
      if (previous && previous.data === serialized && Date.now() - previous.at < touchAfterMs) {
        callback();
        return;
      }
      const sess = {
        ...data,
        cookie: { originalMaxAge: cookie?.originalMaxAge ?? null, expires: expire.toISOString() },
      };
      writes += 1;
      // A session read from the table is only ever updated: if it was ended (signed out, ended
      // from another device, by an admin, expired) while this request ran, it stays ended.
      const written = wasStored
        ? repository.update(sid, sess, expire)
        : repository.upsert(sid, sess, expire).then(() => true);
      written.then(
        (kept) => {
          writes += 1;
          if (kept) {
            remember(sid, serialized);
            cacheSet(sid, sess, expire);
          } else {
            lastWrite.delete(sid);
            cache?.delete(sid);
          }
          callback();
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
        callback(null, { ...JSON.parse(hit.json), [STORED]: true });
        return;
      }
      const writesBefore = writes;
      repository.findWithUser(sid).then(
        (found) => {
          if (!found) return callback(null, null as never);
          const expire = Date.parse(String((found.sess.cookie as TStoredCookie)?.expires));
          if (writes === writesBefore && Number.isFinite(expire)) {
            cacheSet(sid, found.sess, new Date(expire));
          }
          const userId = typeof found.sess.userId === 'string' ? found.sess.userId : undefined;
          loadedWith.set(sid, {
            userId,
            user: found.user,
            answersVersion: found.answersVersion ?? 0,
            snapshot: found.snapshot,
          });
          try {
            callback(null, { ...found.sess, [STORED]: true } as never);
          } finally {
            loadedWith.delete(sid);
          }
        },
        (error) => callback(error, null as never),
      );
    },

    userLoadedWith: (sid) => loadedWith.get(sid),

    destroy(sid, callback) {
      writes += 1;
      lastWrite.delete(sid);
      cache?.delete(sid);
      repository.remove(sid).then(
        () => {
          writes += 1;
          cache?.delete(sid);
          callback();
        },
        (error) => {
          writes += 1;
          callback(error);
        },
      );
    },
  };
}
