import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sshServers, type TSshServerRow } from '../../db/schema';

export type TChecksRepository = ReturnType<typeof createChecksRepository>;

/** What the SSH test needs from a configuration: where it points and what is stored for it. */
export interface TStoredSshTarget {
  id: string;
  serverIp: string;
  sshPort: number;
  sshUser: string;
  sshPasswordEnc: string | null;
  sshPasswordTarget: string | null;
  hostKeyFingerprint: string | null;
  sshServerId: string | null;
}

/** What the checks ask of the proxies module (services.ts hands its reads over). */
export interface TChecksProxyReads {
  sshTargetOwnedBy(userId: string, id: string): Promise<TStoredSshTarget | undefined>;
}

/** `proxiesOver` builds the proxies' reads over the same handle as `db`. */
export function createChecksRepository(db: TDb, proxiesOver: (db: TDb) => TChecksProxyReads) {
  const proxies = proxiesOver(db);
  return {
    /** The configuration when it belongs to `userId`; undefined otherwise (404, never 403). */
    async findOwnSshTarget(userId: string, id: string): Promise<TStoredSshTarget | undefined> {
      return proxies.sshTargetOwnedBy(userId, id);
    },

    /** The saved SSH server when it belongs to `userId`; undefined otherwise (404, never 403). */
    async findOwnSshServer(userId: string, id: string): Promise<TSshServerRow | undefined> {
      const [row] = await db
        .select()
        .from(sshServers)
        .where(and(eq(sshServers.id, id), eq(sshServers.userId, userId)))
        .limit(1);
      return row;
    },
  };
}
