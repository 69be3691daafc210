import type { TLanguage } from '@portico/shared/api-error';
import type { TText } from '@portico/shared/i18n/text';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import {
  deploymentLogs,
  deployments,
  type TDeploymentLogRow,
  type TDeploymentRow,
} from '../../db/schema';
import { violatedConstraint } from '../../db/unique-violation';

export type TDeploymentsRepository = ReturnType<typeof createDeploymentsRepository>;
type TLevel = TDeploymentLogRow['level'];

/** A log line to store; without a timestamp it is stamped by the database. */
export interface TNewLogLine {
  configurationId: string;
  deploymentId: string | null;
  level: TLevel;
  message: string;
  text?: TText | null;
  timestamp?: Date;
}

/** Another run of the configuration is queued or running (deployments_one_unfinished_idx). */
export class RunUnfinishedError extends Error {
  constructor() {
    super('another run of this configuration is unfinished');
    this.name = 'RunUnfinishedError';
  }
}

export function createDeploymentsRepository(db: TDb) {
  // The log screen's read: built at first use, prepared once per connection.
  const logsOf = builtOnce(() =>
    db
      .select()
      .from(deploymentLogs)
      .where(eq(deploymentLogs.configurationId, sql.placeholder('configurationId')))
      .orderBy(asc(deploymentLogs.id))
      .prepare('logs_of_configuration'),
  );

  /** Several lines in one statement; the rows come back in the order given (by id). */
  async function addLogs(lines: TNewLogLine[]): Promise<TDeploymentLogRow[]> {
    if (lines.length === 0) return [];
    const rows = await db.insert(deploymentLogs).values(lines).returning();
    return rows.sort((a, b) => a.id - b.id);
  }

  return {
    /** Throws RunUnfinishedError while another run of the configuration is unfinished. */
    async insert(row: {
      configurationId: string;
      trigger: TDeploymentRow['trigger'];
      requestedBy: string;
      language: TLanguage;
    }): Promise<TDeploymentRow> {
      try {
        const rows = await db.insert(deployments).values(row).returning();
        return rows[0]!;
      } catch (error) {
        if (violatedConstraint(error) === 'deployments_one_unfinished_idx')
          throw new RunUnfinishedError();
        throw error;
      }
    },

    /** The configuration's queued or running run, if any. */
    async unfinishedFor(configurationId: string): Promise<TDeploymentRow | undefined> {
      const rows = await db
        .select()
        .from(deployments)
        .where(
          and(
            eq(deployments.configurationId, configurationId),
            inArray(deployments.status, ['queued', 'running']),
          ),
        )
        .limit(1);
      return rows[0];
    },

    async findById(id: string): Promise<TDeploymentRow | undefined> {
      const rows = await db.select().from(deployments).where(eq(deployments.id, id)).limit(1);
      return rows[0];
    },

    async latestFor(configurationId: string): Promise<TDeploymentRow | undefined> {
      const rows = await db
        .select()
        .from(deployments)
        .where(eq(deployments.configurationId, configurationId))
        .orderBy(desc(deployments.createdAt))
        .limit(1);
      return rows[0];
    },

    async update(id: string, changes: Partial<TDeploymentRow>): Promise<void> {
      await db.update(deployments).set(changes).where(eq(deployments.id, id));
    },

    /**
     * Changes a run only while its status and job are still those `read` had: true when it did.
     * For a writer acting on what it read a moment ago (the reaper), which the run's own worker
     * may have finished since.
     */
    async updateIfStill(
      read: Pick<TDeploymentRow, 'id' | 'status' | 'jobId'>,
      changes: Partial<TDeploymentRow>,
    ): Promise<boolean> {
      const rows = await db
        .update(deployments)
        .set(changes)
        .where(
          and(
            eq(deployments.id, read.id),
            eq(deployments.status, read.status),
            read.jobId === null ? isNull(deployments.jobId) : eq(deployments.jobId, read.jobId),
          ),
        )
        .returning({ id: deployments.id });
      return rows.length > 0;
    },

    /** Runs not finished: queued or running, on any instance. */
    async unfinished(): Promise<TDeploymentRow[]> {
      return db
        .select()
        .from(deployments)
        .where(inArray(deployments.status, ['queued', 'running']));
    },

    addLogs,

    async addLog(line: TNewLogLine): Promise<TDeploymentLogRow> {
      return (await addLogs([line]))[0]!;
    },

    async findLog(id: number): Promise<TDeploymentLogRow | undefined> {
      const rows = await db.select().from(deploymentLogs).where(eq(deploymentLogs.id, id)).limit(1);
      return rows[0];
    },

    /** Every line of a configuration, oldest first. */
    async logsFor(configurationId: string): Promise<TDeploymentLogRow[]> {
      return logsOf().execute({ configurationId });
    },

    /** The lines of one run, oldest first, optionally only those after a given id. */
    async logsOfRun(deploymentId: string, afterId = 0): Promise<TDeploymentLogRow[]> {
      return db
        .select()
        .from(deploymentLogs)
        .where(and(eq(deploymentLogs.deploymentId, deploymentId), gt(deploymentLogs.id, afterId)))
        .orderBy(asc(deploymentLogs.id));
    },
  };
}
