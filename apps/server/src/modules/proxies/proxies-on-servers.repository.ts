import { and, asc, count, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client';
import { proxyConfigurations } from '../../db/schema';

export type TProxiesOnServers = ReturnType<typeof createProxiesOnServers>;

/**
 * What the saved servers ask of the proxies on them: how many, which (a page, the adopted ones,
 * those a scan names) and their pinned keys. services.ts hands these over, built over the same
 * handle (the app's, or a transaction's) as the saved servers' repository.
 */
export function createProxiesOnServers(db: TDb) {
  return {
    /** How many proxies each of the servers `ids` holds (servers with none are absent). */
    async countsOn(ids: string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: proxyConfigurations.sshServerId, n: count() })
        .from(proxyConfigurations)
        .where(inArray(proxyConfigurations.sshServerId, ids))
        .groupBy(proxyConfigurations.sshServerId);
      return new Map(rows.map((r) => [r.id!, r.n]));
    },

    /** The proxies on a server, `limit` at a time in id order after `afterId` (a cursor). */
    async on(serverId: string, afterId: string | undefined, limit: number) {
      return db
        .select({ id: proxyConfigurations.id, domain: proxyConfigurations.domain })
        .from(proxyConfigurations)
        .where(
          and(
            eq(proxyConfigurations.sshServerId, serverId),
            afterId === undefined ? undefined : gt(proxyConfigurations.id, afterId),
          ),
        )
        .orderBy(asc(proxyConfigurations.id))
        .limit(limit);
    },

    /**
     * The proxies holding any of these domains (lower-cased), by the unique index on
     * lower(domain), a thousand names a query.
     */
    async holdingDomains(domains: string[]) {
      const found = [];
      for (let at = 0; at < domains.length; at += 1000) {
        const rows = await db
          .select({
            id: proxyConfigurations.id,
            domain: proxyConfigurations.domain,
            userId: proxyConfigurations.userId,
            sshServerId: proxyConfigurations.sshServerId,
            origin: proxyConfigurations.origin,
            adoptedSha256: proxyConfigurations.adoptedSha256,
          })
          .from(proxyConfigurations)
          .where(inArray(sql`lower(${proxyConfigurations.domain})`, domains.slice(at, at + 1000)));
        found.push(...rows.map((r) => ({ ...r, domain: r.domain.toLowerCase() })));
      }
      return found;
    },

    /**
     * An adopted site's file as a look found it: changed by hand since adoption or not (`kept`:
     * not known, a gone file), gone or there (each time kept from the first look that saw it).
     */
    async markAdoptedChange(
      proxyId: string,
      changedAt: Date | null | 'kept',
      missingAt: Date | null,
    ): Promise<void> {
      const since = (column: AnyPgColumn, at: Date | null) =>
        at === null ? null : sql`coalesce(${column}, ${at.toISOString()}::timestamptz)`;
      await db
        .update(proxyConfigurations)
        .set({
          ...(changedAt === 'kept'
            ? {}
            : { adoptedChangedAt: since(proxyConfigurations.adoptedChangedAt, changedAt) }),
          adoptedMissingAt: since(proxyConfigurations.adoptedMissingAt, missingAt),
        })
        .where(and(eq(proxyConfigurations.id, proxyId), eq(proxyConfigurations.origin, 'adopted')));
    },

    /** The sites adopted on a server (its proxies' index), at most `limit`, oldest first. */
    async adoptedOn(serverId: string, limit: number) {
      return db
        .select({
          id: proxyConfigurations.id,
          domain: proxyConfigurations.domain,
          adoptedFile: proxyConfigurations.adoptedFile,
          adoptedSha256: proxyConfigurations.adoptedSha256,
        })
        .from(proxyConfigurations)
        .where(
          and(
            eq(proxyConfigurations.sshServerId, serverId),
            eq(proxyConfigurations.origin, 'adopted'),
          ),
        )
        .orderBy(proxyConfigurations.createdAt, proxyConfigurations.id)
        .limit(limit);
    },

    /** Drops the host keys the server's proxies pinned (one indexed update, however many). */
    async forgetHostKeysOn(serverId: string): Promise<void> {
      await db
        .update(proxyConfigurations)
        .set({ hostKeyFingerprint: null })
        .where(
          and(
            eq(proxyConfigurations.sshServerId, serverId),
            isNotNull(proxyConfigurations.hostKeyFingerprint),
          ),
        );
    },
  };
}
