import type { TAdminUserQuery } from '@portico/shared/admin/api';
import type { TRole } from '@portico/shared/auth/schemas';
import type { TProxyListQuery } from '@portico/shared/proxy/api';
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import type { proxyPage } from '../../db/proxy-lists';
import type { TReadsOver } from '../../db/reads-over';
import type { TAuditLogRow, TProxyConfigurationRow } from '../../db/schema';
import { UUID_TEXT } from '../../lib/list-cursor';
import type { TUserDirectory } from '../users/user-directory.repository';

export type TAdminRepository = ReturnType<typeof createAdminRepository>;

export interface TAuditFilter {
  userId?: string;
  proxyId?: string;
  before?: number;
  limit: number;
}

/** An audit row with its target's name today; null when the target is gone or has none. */
export type TAuditRowNamed = TAuditLogRow & { targetName: string | null };

/** A proxy on the admin's all-proxies screen, with its owner. */
export type TAdminProxyRecord = Pick<
  TProxyConfigurationRow,
  | 'id'
  | 'domain'
  | 'targetServer'
  | 'status'
  | 'sslConfigured'
  | 'serverSites'
  | 'origin'
  | 'adoptedFile'
  | 'lastFailure'
  | 'createdAt'
> & { userId: string; username: string; email: string };

/** What the admin screens ask of the proxies module (services.ts hands its reads over). */
export interface TAdminProxyReads {
  countOwnedByColumn(userId: AnyColumn): SQL<number>;
  domainsOf(ids: string[]): Promise<{ id: string; name: string }[]>;
  ownersByProxyCount(): Promise<
    { userId: string; username: string; email: string; proxyCount: number }[]
  >;
  allWithOwnersInParts(): AsyncGenerator<(TAdminProxyRecord & { key: string })[]>;
  allWithOwnersPage(
    query: TProxyListQuery & { limit: number },
    now: Date,
  ): ReturnType<typeof proxyPage<TAdminProxyRecord & { key: string }>>;
}

/** What the admin screens ask of the saved servers module. */
export interface TAdminServerReads {
  namesOf(ids: string[]): Promise<{ id: string; name: string }[]>;
}

/** What the admin screens ask of the audit module. */
export interface TAdminAuditReads {
  page(filter: TAuditFilter): Promise<TAuditLogRow[]>;
}

/** What the admin screens ask of the users module: the accounts' list and the role change. */
export type TAdminUserReads = Pick<
  TUserDirectory,
  'count' | 'namesOf' | 'page' | 'list' | 'setRoleKeepingAnAdmin'
>;

/** The owners' reads the admin screens join, each built over a handle (services.ts hands them over). */
export type TAdminReadsOver = TReadsOver<{
  proxies: TAdminProxyReads;
  servers: TAdminServerReads;
  audit: TAdminAuditReads;
  users: TAdminUserReads;
}>;

/**
 * The joins and aggregates of the admin screens; writes go through the owning services.
 * `over` builds the owners' reads over the same handle as `db`.
 */
export function createAdminRepository(db: TDb, over: TAdminReadsOver) {
  const proxies = over.proxies(db);
  const servers = over.servers(db);
  const audit = over.audit(db);
  const accounts = over.users(db);
  // Counted per user found, through the owner index, not over every proxy.
  const proxyCount = (userId: AnyColumn) => proxies.countOwnedByColumn(userId);
  /** `type:id` → name of the target types whose rows have one. */
  const namedTargets: Record<string, (ids: string[]) => Promise<{ id: string; name: string }[]>> = {
    proxy_configuration: (ids) => proxies.domainsOf(ids),
    user: (ids) => accounts.namesOf(ids),
    ssh_server: (ids) => servers.namesOf(ids),
  };
  /** `type:id` → name for the targets of a page; ids that are no UUID cannot name a row. */
  async function targetNames(rows: TAuditLogRow[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const [type, namesOf] of Object.entries(namedTargets)) {
      const ids = new Set(
        rows
          .filter((r) => r.targetType === type && UUID_TEXT.test(r.targetId))
          .map((r) => r.targetId),
      );
      if (ids.size === 0) continue;
      const found = await namesOf([...ids]);
      for (const row of found) names.set(`${type}:${row.id}`, row.name);
    }
    return names;
  }

  return {
    async countUsers(): Promise<number> {
      return accounts.count();
    },

    /** Only users with at least one proxy (inner join), most proxies first. */
    async proxiesByUser() {
      return proxies.ownersByProxyCount();
    },

    /** Every user's proxies with their owners, newest first, in parts (read each before the next). */
    allProxiesInParts() {
      return proxies.allWithOwnersInParts();
    },

    /** One page of every user's proxies (db/proxy-lists.ts), with its counts. */
    async allProxiesPage(query: TProxyListQuery & { limit: number }, now: Date) {
      return proxies.allWithOwnersPage(query, now);
    },

    /**
     * One page of the users, oldest first (the whole list's order), found by username or e-mail,
     * with the number of each role among those found.
     */
    async usersPage(query: TAdminUserQuery & { limit: number }) {
      return accounts.page(query, proxyCount);
    },

    /** Every user, or the one with `id`, with the number of proxies they own. */
    async listUsers(id?: string) {
      return accounts.list(id, proxyCount);
    },

    /**
     * Newest first by id (ids grow with every insert; timestamps can tie), each row with its
     * target's current name: one primary-key lookup per target type on the page, never per row.
     */
    async auditPage(filter: TAuditFilter): Promise<TAuditRowNamed[]> {
      const rows = await audit.page(filter);
      const names = await targetNames(rows);
      return rows.map((row) => ({
        ...row,
        targetName: names.get(`${row.targetType}:${row.targetId}`) ?? null,
      }));
    },

    /** Sets a role unless it would leave no admin (the users module locks the admins' rows). */
    async setRoleKeepingAnAdmin(id: string, role: TRole) {
      return accounts.setRoleKeepingAnAdmin(id, role);
    },
  };
}
