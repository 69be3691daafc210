import type { TUserRow } from '../db/schema';
import type { TSessionsRepository } from '../modules/sessions/sessions.repository';

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

/** A session as the table keeps it: its data, and the cookie's expiry. */
export type TStoredSession = Record<string, unknown> & { cookie?: TStoredCookie };

export interface TPorticoSessionStore {
  /**
   * The live session `sid` (null when there is none), and the account read with it when it came
   * from the table (not from this process's memory).
   */
  get(
    sid: string,
    callback: (error: unknown, found: TStoredSession | null, loaded?: TLoadedUser) => void,
  ): void;
  /**
   * Keeps `data` until `expires`. A session read from the table (`stored`) is only updated.
   * `wrote` says whether the row (and so its expiry) changed: an unchanged session is
   * written again at most once per `touchAfterMs`.
   */
  set(
    sid: string,
    data: Record<string, unknown>,
    options: { expires: Date; maxAgeMs: number; stored: boolean },
    callback: (error?: unknown, wrote?: boolean) => void,
  ): void;
  destroy(sid: string, callback: (error?: unknown) => void): void;
}

/**
 * The data as JSON with its keys in one order: PostgreSQL's jsonb hands a session's keys back
 * in its own order, and the same data must compare equal to what was written.
 */
function keyOrderFree(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(data).sort()) {
    const value = JSON.stringify(data[key]);
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${value}`);
  }
  return `{${parts.join(',')}}`;
}

type TStoredCookie = { originalMaxAge?: number | null; expires?: string | Date | null };

/**
 * The sessions' store on the `session` table (plugins/session.ts). Only the data and the expiry
 * are persisted: the cookie flags (Secure, SameSite, HttpOnly) are decided on every response, so
 * a session first created over plain HTTP does not keep `secure: false` forever.
 *
 * A rolling session would otherwise write its row on every request; an unchanged session is
 * re-written at most once per `touchAfterMs`, and its cookie is sent again with that write.
 */
export function createSessionStore(
  repository: TSessionsRepository,
  options: TSessionStoreOptions = {},
): TPorticoSessionStore {
  const touchAfterMs = options.touchAfterMs ?? 60_000;
  // sid -> the data last written (keys in one order), when, and as it last came back.
  const lastWrite = new Map<string, { data: string; plain: string; at: number }>();
  // sid -> the stored JSON and its expiry; parsed on every read so callers never share objects.
  const cache = options.cache ? new Map<string, { json: string; expire: number }>() : null;
  // Bumped before and after every write here: a read that overlapped one is not kept, so a
  // destroyed session never comes back from the cache.
  let writes = 0;

  function remember(sid: string, data: string) {
    if (lastWrite.size > CACHE_LIMIT) lastWrite.clear();
    lastWrite.set(sid, { data, plain: '', at: Date.now() });
  }

  function cacheSet(sid: string, sess: Record<string, unknown>, expire: Date) {
    if (!cache) return;
    if (cache.size > CACHE_LIMIT) cache.clear();
    cache.set(sid, { json: JSON.stringify(sess), expire: expire.getTime() });
  }

  return {
    set(sid, data, { expires, maxAgeMs, stored }, callback) {
      const previous = lastWrite.get(sid);
      if (previous && Date.now() - previous.at < touchAfterMs) {
        // Most often the data comes back in the order it was written: one native stringify.
        const plain = JSON.stringify(data);
        if (plain === previous.plain || keyOrderFree(data) === previous.data) {
          previous.plain = plain;
          callback(undefined, false);
          return;
        }
      }
      const serialized = keyOrderFree(data);
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
          if (kept) {
            remember(sid, serialized);
            cacheSet(sid, sess, expires);
          } else {
            lastWrite.delete(sid);
            cache?.delete(sid);
          }
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
        callback(null, JSON.parse(hit.json));
        return;
      }
      const writesBefore = writes;
      repository.findWithUser(sid).then(
        (found) => {
          if (!found) return callback(null, null);
          const expire = Date.parse(String((found.sess.cookie as TStoredCookie)?.expires));
          if (writes === writesBefore && Number.isFinite(expire)) {
            cacheSet(sid, found.sess, new Date(expire));
          }
          const userId = typeof found.sess.userId === 'string' ? found.sess.userId : undefined;
          callback(null, found.sess, {
            userId,
            user: found.user,
            answersVersion: found.answersVersion ?? 0,
            snapshot: found.snapshot,
          });
        },
        (error) => callback(error, null),
      );
    },

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
