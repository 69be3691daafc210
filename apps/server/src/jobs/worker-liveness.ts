import { dedicatedClient, type TDatabase } from '../db/client';

export interface TWorkerLiveness {
  /** Marks a run as worked by this process (an advisory lock on PostgreSQL). */
  hold(deploymentId: string): Promise<void>;
  release(deploymentId: string): Promise<void>;
  /** Whether some live process works the run. */
  isAlive(deploymentId: string): Promise<boolean>;
  close(): Promise<void>;
}

const KEY = 'hashtextextended($1, 0)';

/**
 * Tells a run whose worker died from one still running elsewhere. On PGlite this process is the
 * only one on the data dir (the lock file), so a run it does not work itself is dead. On
 * PostgreSQL each instance holds a session advisory lock per run on one dedicated connection;
 * the server drops the locks of a dead process with its connection, so a lock that can be taken
 * means nobody works the run.
 */
export async function createWorkerLiveness(database: TDatabase): Promise<TWorkerLiveness> {
  const local = new Set<string>();
  if (database.kind === 'pglite') {
    return {
      hold: async (id) => void local.add(id),
      release: async (id) => void local.delete(id),
      isAlive: async (id) => local.has(id),
      close: async () => {},
    };
  }
  const client = dedicatedClient(database);
  client.on('error', () => {});
  await client.connect();
  return {
    async hold(id) {
      local.add(id);
      await client.query(`select pg_advisory_lock(${KEY})`, [id]);
    },
    async release(id) {
      local.delete(id);
      await client.query(`select pg_advisory_unlock(${KEY})`, [id]).catch(() => {});
    },
    async isAlive(id) {
      if (local.has(id)) return true;
      const r = await client.query<{ taken: boolean }>(
        `select pg_try_advisory_lock(${KEY}) as taken`,
        [id],
      );
      if (!r.rows[0]?.taken) return true;
      await client.query(`select pg_advisory_unlock(${KEY})`, [id]);
      return false;
    },
    close: () => client.end().catch(() => {}),
  };
}
