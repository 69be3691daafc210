import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { readsByKey } from '../../db/batched-reads';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { answerVersions, session, type TUserRow, users } from '../../db/schema';

export type TSessionsRepository = ReturnType<typeof createSessionsRepository>;

// The session's userId as a uuid (null when absent or not a uuid), so the join uses the key.
const userIdOf = sql`(case when ${session.sess}->>'userId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (${session.sess}->>'userId')::uuid end)`;

/**
 * `batchReads`: the app's shared repository asks for the sessions of all the requests waiting
 * at once.
 */
export function createSessionsRepository(db: TDb, { batchReads = false } = {}) {
  // Read on every signed-in request: built at first use, prepared once per connection on
  // PostgreSQL, and batched in the app's shared repository (db/batched-reads.ts). With what
  // tells whether an answer kept earlier still holds (plugins/answer-cache.ts): the account's
  // answer versions, and the database's snapshot (two equal snapshots mean that no transaction
  // committed in between, on any connection of any instance).
  const findWithUsers = builtOnce(() =>
    db
      .select({
        sid: session.sid,
        sess: session.sess,
        user: users,
        proxiesVersion: answerVersions.proxiesVersion,
        logsVersion: answerVersions.logsVersion,
        snapshot: sql<string>`pg_current_snapshot()::text`,
      })
      .from(session)
      .leftJoin(users, eq(users.id, userIdOf))
      .leftJoin(answerVersions, eq(answerVersions.userId, users.id))
      .where(
        and(
          sql`${session.sid} = any(${sql.placeholder('sids')}::text[])`,
          gt(session.expire, sql.placeholder('now')),
        ),
      )
      .prepare('sessions_with_users'),
  );
  const findWithUser = readsByKey(
    async (sids: string[]) => {
      const rows = await findWithUsers().execute({ sids, now: new Date() });
      return new Map(rows.map(({ sid, ...row }) => [sid, row]));
    },
    { batched: batchReads },
  );

  return {
    async find(sid: string): Promise<Record<string, unknown> | undefined> {
      const rows = await db
        .select({ sess: session.sess })
        .from(session)
        .where(and(eq(session.sid, sid), gt(session.expire, new Date())))
        .limit(1);
      return rows[0]?.sess;
    },

    /**
     * The live session `sid` and, in the same read, the account it is signed in to (null when
     * it is signed in to none, or to one that no longer exists).
     */
    async findWithUser(sid: string): Promise<
      | {
          sess: Record<string, unknown>;
          user: TUserRow | null;
          proxiesVersion: number | null;
          logsVersion: number | null;
          snapshot: string;
        }
      | undefined
    > {
      return findWithUser(sid);
    },

    /** The user of each live session among `sids`, in one query; ended or expired ones are absent. */
    async usersOf(sids: string[]): Promise<Map<string, string>> {
      if (sids.length === 0) return new Map();
      const rows = await db
        .select({ sid: session.sid, userId: sql<string | null>`${session.sess}->>'userId'` })
        .from(session)
        .where(and(inArray(session.sid, sids), gt(session.expire, new Date())));
      return new Map(rows.flatMap((row) => (row.userId ? [[row.sid, row.userId]] : [])));
    },

    async upsert(sid: string, sess: Record<string, unknown>, expire: Date): Promise<void> {
      await db
        .insert(session)
        .values({ sid, sess, expire })
        .onConflictDoUpdate({ target: session.sid, set: { sess, expire } });
    },

    /** Writes an existing session; false when it no longer exists (nothing is written then). */
    async update(sid: string, sess: Record<string, unknown>, expire: Date): Promise<boolean> {
      const rows = await db
        .update(session)
        .set({ sess, expire })
        .where(eq(session.sid, sid))
        .returning({ sid: session.sid });
      return rows.length > 0;
    },

    async remove(sid: string): Promise<void> {
      await db.delete(session).where(eq(session.sid, sid));
    },

    /** Deletes these sessions; returns the ones that existed (the ones this call ended). */
    async removeMany(sids: string[]): Promise<string[]> {
      if (sids.length === 0) return [];
      const deleted = await db
        .delete(session)
        .where(inArray(session.sid, sids))
        .returning({ sid: session.sid });
      return deleted.map((row) => row.sid);
    },

    async exists(sid: string): Promise<boolean> {
      const rows = await db
        .select({ sid: session.sid })
        .from(session)
        .where(eq(session.sid, sid))
        .limit(1);
      return rows.length > 0;
    },

    /** The user's live sessions, with their data and expiry (the settings page's list). */
    async listForUser(
      userId: string,
    ): Promise<{ sid: string; sess: Record<string, unknown>; expire: Date }[]> {
      return db
        .select({ sid: session.sid, sess: session.sess, expire: session.expire })
        .from(session)
        .where(and(sql`${session.sess}->>'userId' = ${userId}`, gt(session.expire, new Date())));
    },

    /** Signs the user out everywhere (a password reset); returns how many sessions ended. */
    async removeForUser(userId: string): Promise<number> {
      const deleted = await db
        .delete(session)
        .where(sql`${session.sess}->>'userId' = ${userId}`)
        .returning({ sid: session.sid });
      return deleted.length;
    },

    /** Deletes expired rows; returns how many. */
    async sweepExpired(now = new Date()): Promise<number> {
      const deleted = await db
        .delete(session)
        .where(lt(session.expire, now))
        .returning({ sid: session.sid });
      return deleted.length;
    },
  };
}
