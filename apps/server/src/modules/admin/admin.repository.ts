import type { TRole } from '@portico/shared/auth/schemas';
import { and, asc, count, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { TDb } from '../../db/client';
import { auditLog, proxyConfigurations, type TAuditLogRow, users } from '../../db/schema';

export type TAdminRepository = ReturnType<typeof createAdminRepository>;

export interface TAuditFilter {
  userId?: string;
  proxyId?: string;
  before?: number;
  limit: number;
}

export type TRoleOutcome =
  | { kind: 'not_found' }
  | { kind: 'last_admin' }
  | { kind: 'changed' | 'unchanged'; before: TRole; username: string };

/** The joins and aggregates of the admin screens; writes go through the owning services. */
export function createAdminRepository(db: TDb) {
  // The all-proxies screen: built at first use, prepared once per connection.
  const allProxies = builtOnce(() =>
    db
      .select({
        id: proxyConfigurations.id,
        domain: proxyConfigurations.domain,
        targetServer: proxyConfigurations.targetServer,
        status: proxyConfigurations.status,
        sslConfigured: proxyConfigurations.sslConfigured,
        serverSites: proxyConfigurations.serverSites,
        lastFailure: proxyConfigurations.lastFailure,
        createdAt: proxyConfigurations.createdAt,
        userId: users.id,
        username: users.username,
        email: users.email,
      })
      .from(proxyConfigurations)
      .innerJoin(users, eq(users.id, proxyConfigurations.userId))
      .orderBy(desc(proxyConfigurations.createdAt), desc(proxyConfigurations.id))
      .prepare('admin_all_proxies'),
  );

  const proxyCount = count(proxyConfigurations.id).mapWith(Number);

  return {
    async countUsers(): Promise<number> {
      const rows = await db.select({ n: count() }).from(users);
      return Number(rows[0]?.n ?? 0);
    },

    /** Only users with at least one proxy (inner join), most proxies first. */
    async proxiesByUser() {
      return db
        .select({
          userId: users.id,
          username: users.username,
          email: users.email,
          proxyCount,
        })
        .from(users)
        .innerJoin(proxyConfigurations, eq(proxyConfigurations.userId, users.id))
        .groupBy(users.id)
        .orderBy(desc(proxyCount), asc(users.username), asc(users.id));
    },

    async allProxies() {
      return allProxies().execute();
    },

    /** Every user, or the one with `id`, with the number of proxies they own. */
    async listUsers(id?: string) {
      return db
        .select({
          id: users.id,
          username: users.username,
          email: users.email,
          role: users.role,
          createdAt: users.createdAt,
          proxyCount,
        })
        .from(users)
        .leftJoin(proxyConfigurations, eq(proxyConfigurations.userId, users.id))
        .where(id ? eq(users.id, id) : undefined)
        .groupBy(users.id)
        .orderBy(asc(users.createdAt), asc(users.username), asc(users.id));
    },

    /** Newest first by id (ids grow with every insert; timestamps can tie). */
    async auditPage(filter: TAuditFilter): Promise<TAuditLogRow[]> {
      const conditions: (SQL | undefined)[] = [];
      if (filter.userId) {
        conditions.push(
          or(eq(auditLog.actorId, filter.userId), eq(auditLog.targetOwnerId, filter.userId)),
        );
      }
      if (filter.proxyId) {
        conditions.push(
          and(
            eq(auditLog.targetType, 'proxy_configuration'),
            eq(auditLog.targetId, filter.proxyId),
          ),
        );
      }
      if (filter.before !== undefined) conditions.push(lt(auditLog.id, filter.before));
      return db
        .select()
        .from(auditLog)
        .where(and(...conditions))
        .orderBy(desc(auditLog.id))
        .limit(filter.limit);
    },

    /**
     * Sets a role unless it would leave no admin. The admin rows are locked first, so two
     * concurrent demotions cannot each see the other as the remaining admin.
     */
    async setRoleKeepingAnAdmin(id: string, role: TRole): Promise<TRoleOutcome> {
      return db.transaction(async (tx) => {
        const admins = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.role, 'admin'))
          .for('update');
        const target = (
          await tx
            .select({ role: users.role, username: users.username })
            .from(users)
            .where(eq(users.id, id))
            .for('update')
        )[0];
        if (!target) return { kind: 'not_found' };
        if (target.role === role) {
          return { kind: 'unchanged', before: target.role, username: target.username };
        }
        if (role !== 'admin' && !admins.some((a) => a.id !== id)) return { kind: 'last_admin' };
        await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
        return { kind: 'changed', before: target.role, username: target.username };
      });
    },
  };
}
