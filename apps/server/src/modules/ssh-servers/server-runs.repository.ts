import type { TText } from '@portico/shared/i18n/text';
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import {
  serverRunResults,
  serverRuns,
  type TServerRunResultRow,
  type TServerRunRow,
} from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

/** Another run of the server is queued or running (server_runs_one_active_idx). */
export class ServerRunActiveError extends Error {
  constructor() {
    super('another run of this server is unfinished');
    this.name = 'ServerRunActiveError';
  }
}

const UNFINISHED = ['queued', 'running'] as const;
/** Finished runs kept per server beside the newest: older ones (and their results) go. */
const KEPT = 5;

export type TServerRunsRepository = ReturnType<typeof createServerRunsRepository>;

export function createServerRunsRepository(db: TDb) {
  return {
    /** Throws ServerRunActiveError while another run of the server is unfinished. */
    async insert(row: typeof serverRuns.$inferInsert): Promise<TServerRunRow> {
      try {
        const rows = await db.insert(serverRuns).values(row).returning();
        return rows[0]!;
      } catch (error) {
        if (violatedConstraint(error) === 'server_runs_one_active_idx') {
          throw new ServerRunActiveError();
        }
        throw error;
      }
    },

    async findById(id: string): Promise<TServerRunRow | undefined> {
      const rows = await db.select().from(serverRuns).where(eq(serverRuns.id, id));
      return rows[0];
    },

    /** The server's queued or running run (at most one: the unique index). */
    async activeFor(serverId: string): Promise<TServerRunRow | undefined> {
      const rows = await db
        .select()
        .from(serverRuns)
        .where(and(eq(serverRuns.sshServerId, serverId), inArray(serverRuns.state, UNFINISHED)))
        .limit(1);
      return rows[0];
    },

    async latestFor(serverId: string): Promise<TServerRunRow | undefined> {
      const rows = await db
        .select()
        .from(serverRuns)
        .where(eq(serverRuns.sshServerId, serverId))
        .orderBy(desc(serverRuns.createdAt), desc(serverRuns.id))
        .limit(1);
      return rows[0];
    },

    /** The oldest finished runs past the newest KEPT of the server, with their results. */
    async pruneFor(serverId: string): Promise<void> {
      const keep = db
        .select({ id: serverRuns.id })
        .from(serverRuns)
        .where(eq(serverRuns.sshServerId, serverId))
        .orderBy(desc(serverRuns.createdAt), desc(serverRuns.id))
        .limit(KEPT);
      await db
        .delete(serverRuns)
        .where(
          and(
            eq(serverRuns.sshServerId, serverId),
            sql`${serverRuns.state} not in ('queued', 'running')`,
            sql`${serverRuns.id} not in (${keep})`,
          ),
        );
    },

    /** Moves the run from one state to another; false when it was not in `from` any more. */
    async move(
      id: string,
      from: TServerRunRow['state'][],
      set: Partial<Pick<TServerRunRow, 'state' | 'startedAt' | 'finishedAt' | 'text' | 'total'>>,
    ): Promise<boolean> {
      const rows = await db
        .update(serverRuns)
        .set(set)
        .where(and(eq(serverRuns.id, id), inArray(serverRuns.state, from)))
        .returning({ id: serverRuns.id });
      return rows.length > 0;
    },

    /** One proxy's outcome and the run's count of it, together. */
    async addResult(row: Omit<TServerRunResultRow, never>): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(serverRunResults).values(row);
        const column = serverRuns[row.outcome];
        await tx
          .update(serverRuns)
          .set({ [row.outcome]: sql`${column} + 1` })
          .where(eq(serverRuns.id, row.runId));
      });
    },

    /** A page of the run's results in the order it went through the proxies. */
    async resultsAfter(runId: string, after: number, limit: number) {
      return db
        .select()
        .from(serverRunResults)
        .where(and(eq(serverRunResults.runId, runId), gt(serverRunResults.position, after)))
        .orderBy(asc(serverRunResults.position))
        .limit(limit);
    },

    /** Unfinished runs in id order after `afterId`, a batch at a time (their partial index). */
    async unfinishedAfter(afterId: string | undefined, limit: number): Promise<TServerRunRow[]> {
      return db
        .select()
        .from(serverRuns)
        .where(
          and(
            inArray(serverRuns.state, UNFINISHED),
            afterId === undefined ? undefined : gt(serverRuns.id, afterId),
          ),
        )
        .orderBy(asc(serverRuns.id))
        .limit(limit);
    },

    async finish(id: string, state: 'failed' | 'timed-out' | 'done', text: TText | null) {
      return this.move(id, [...UNFINISHED], { state, text, finishedAt: new Date() });
    },
  };
}
