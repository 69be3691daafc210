import { and, asc, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TDb } from './client';
import { proxyConfigurations, sshServers } from './schema';

/**
 * Servers made by migration 0014 still without the password their proxies hold: a bounded
 * batch, with one proxy each whose password was entered for the server's very target. One join
 * of two modules' tables (the saved servers' and the proxies'), so it lives here, below both.
 */
export async function passwordsToMove(db: TDb, afterServerId: string, limit: number) {
  return db
    .select({
      serverId: sshServers.id,
      host: sshServers.host,
      port: sshServers.port,
      username: sshServers.username,
      proxyId: proxyConfigurations.id,
      sshPasswordEnc: proxyConfigurations.sshPasswordEnc,
      sshPasswordTarget: proxyConfigurations.sshPasswordTarget,
    })
    .from(sshServers)
    .innerJoin(proxyConfigurations, eq(proxyConfigurations.sshServerId, sshServers.id))
    .where(
      and(
        eq(sshServers.authKind, 'password'),
        isNull(sshServers.passwordEnc),
        isNotNull(proxyConfigurations.sshPasswordEnc),
        eq(
          proxyConfigurations.sshPasswordTarget,
          sql`${sshServers.username} || '@' || ${sshServers.host} || ':' || ${sshServers.port}`,
        ),
        gt(sshServers.id, afterServerId),
      ),
    )
    .orderBy(asc(sshServers.id), desc(proxyConfigurations.updatedAt))
    .limit(limit);
}
