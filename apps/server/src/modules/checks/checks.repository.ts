import type { TDb } from '../../db/client';
import type { TReadsOver } from '../../db/reads-over';
import type { TSshServerRow } from '../../db/schema';

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

/** What the checks ask of the saved servers module. */
export interface TChecksServerReads {
  ownedBy(userId: string, id: string): Promise<TSshServerRow | undefined>;
}

/** The owners' reads the checks ask, each built over a handle (services.ts hands them over). */
export type TChecksReadsOver = TReadsOver<{
  proxies: TChecksProxyReads;
  servers: TChecksServerReads;
}>;

/** `over` builds the owners' reads over the same handle as `db`. */
export function createChecksRepository(db: TDb, over: TChecksReadsOver) {
  const proxies = over.proxies(db);
  const servers = over.servers(db);
  return {
    /** The configuration when it belongs to `userId`; undefined otherwise (404, never 403). */
    async findOwnSshTarget(userId: string, id: string): Promise<TStoredSshTarget | undefined> {
      return proxies.sshTargetOwnedBy(userId, id);
    },

    /** The saved SSH server when it belongs to `userId`; undefined otherwise (404, never 403). */
    async findOwnSshServer(userId: string, id: string): Promise<TSshServerRow | undefined> {
      return servers.ownedBy(userId, id);
    },
  };
}
