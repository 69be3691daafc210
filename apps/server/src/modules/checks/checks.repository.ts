import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { proxyConfigurations, sshServers, type TSshServerRow } from '../../db/schema';

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

export function createChecksRepository(db: TDb) {
  return {
    /** The configuration when it belongs to `userId`; undefined otherwise (404, never 403). */
    async findOwnSshTarget(userId: string, id: string): Promise<TStoredSshTarget | undefined> {
      const [row] = await db
        .select({
          id: proxyConfigurations.id,
          serverIp: proxyConfigurations.serverIp,
          sshPort: proxyConfigurations.sshPort,
          sshUser: proxyConfigurations.sshUser,
          sshPasswordEnc: proxyConfigurations.sshPasswordEnc,
          sshPasswordTarget: proxyConfigurations.sshPasswordTarget,
          hostKeyFingerprint: proxyConfigurations.hostKeyFingerprint,
          sshServerId: proxyConfigurations.sshServerId,
        })
        .from(proxyConfigurations)
        .where(and(eq(proxyConfigurations.id, id), eq(proxyConfigurations.userId, userId)))
        .limit(1);
      return row;
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
