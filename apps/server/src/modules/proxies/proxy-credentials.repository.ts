import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { proxyConfigurations } from '../../db/schema';

export type TProxyCredentials = ReturnType<typeof createProxyCredentials>;

/**
 * What other modules ask of a proxy's way in (its SSH target, its sealed password, its pinned
 * host key): the SSH test's target. services.ts hands these over, built over the same handle
 * (the app's, or a transaction's) as the repository that asks.
 */
export function createProxyCredentials(db: TDb) {
  return {
    /** Where the proxy's server is and what is stored for it, when it is `userId`'s. */
    async sshTargetOwnedBy(userId: string, id: string) {
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
  };
}
