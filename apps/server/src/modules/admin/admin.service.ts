import type {
  TAdminProxyPage,
  TAdminProxyRow,
  TAdminUser,
  TAdminUserPage,
  TAdminUserQuery,
  TAuditEntry as TAuditEntryView,
} from '@portico/shared/admin/api';
import type { TLanguage } from '@portico/shared/api-error';
import type { TRole } from '@portico/shared/auth/schemas';
import { asksForPage, PAGE_LIMIT_DEFAULT } from '@portico/shared/lists/page';
import type {
  TEditProxyInput,
  TProxyConfiguration,
  TProxyListQuery,
} from '@portico/shared/proxy/api';
import { servingOfProxy } from '@portico/shared/proxy/server-record';
import type { TTransaction } from '../../db/transaction';
import { AppError, KeyedAppError } from '../../lib/app-error';
import { isoTime } from '../../lib/iso-time';
import type { TAuditService } from '../audit/audit.service';
import type { TActor, TProxiesService } from '../proxies/proxies.service';
import { lastFailureOf } from '../proxies/proxy-view';
import type { TUsersService } from '../users/users.service';
import type {
  TAdminProxyRecord,
  TAdminRepository,
  TAuditFilter,
  TAuditRowNamed,
} from './admin.repository';

export type TAdminService = ReturnType<typeof createAdminService>;

/** What a role change writes: the guarded change, the row again through users, the audit row. */
export interface TAdminWrites {
  repository: TAdminRepository;
  /** The users table within the transaction: writing the row through it drops the cached row. */
  users: TUsersService;
  audit: TAuditService;
}

export interface TAdminServiceDeps {
  repository: TAdminRepository;
  transaction: TTransaction<TAdminWrites>;
  editProxy: TProxiesService['edit'];
}

const adminErrors = {
  lastAdmin: () => new KeyedAppError('last_admin', 409, 'errors.lastAdmin'),
  userNotFound: () => new AppError('not_found', 404),
};

function toAuditEntry(row: TAuditRowNamed): TAuditEntryView {
  return {
    id: row.id,
    actorId: row.actorId,
    actorUsername: row.actorUsername,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetOwnerId: row.targetOwnerId,
    targetName: row.targetName,
    changes: row.changes,
    createdAt: isoTime(row.createdAt),
  };
}

export function createAdminService(deps: TAdminServiceDeps) {
  const { repository } = deps;

  async function userView(id: string): Promise<TAdminUser> {
    const row = (await repository.listUsers(id))[0];
    if (!row) throw adminErrors.userNotFound();
    return { ...row, createdAt: isoTime(row.createdAt) };
  }

  return {
    async userStats() {
      return { totalUsers: await repository.countUsers() };
    },

    proxiesByUser: () => repository.proxiesByUser(),

    /**
     * Every proxy, or one page when the query holds any list parameter, each with what its
     * owner's screens summarise it by, in the reader's language.
     */
    async allProxies(
      query: TProxyListQuery = {},
      language: TLanguage = 'en',
    ): Promise<TAdminProxyRow[] | TAdminProxyPage> {
      const view = <T extends TAdminProxyRecord>({
        sslConfigured,
        serverSites,
        origin,
        adoptedFile,
        lastFailure,
        createdAt,
        ...row
      }: T) => ({
        ...row,
        serving: servingOfProxy({ serverSites, sslConfigured, adopted: origin === 'adopted' }),
        adoptedFile: origin === 'adopted' ? (adoptedFile ?? '') : null,
        lastFailure: lastFailureOf(lastFailure, language),
        createdAt: isoTime(createdAt),
      });
      if (!asksForPage(query)) {
        const views: TAdminProxyRow[] = [];
        // Each part mapped before the next is read: the rows do not all live at once.
        for await (const rows of repository.allProxiesInParts()) {
          for (const { key: _, ...row } of rows) views.push(view(row));
        }
        return views;
      }
      const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
      const { rows, ...page } = await repository.allProxiesPage({ ...query, limit }, new Date());
      return { items: rows.map(({ key: _, ...row }) => view(row)), ...page };
    },

    /** The proxies service checks the domain and the running deployment and writes the audit row. */
    editProxy(
      actor: TActor,
      id: string,
      input: TEditProxyInput,
      language: TLanguage,
    ): Promise<TProxyConfiguration> {
      return deps.editProxy(actor, id, input, { asAdmin: true, language });
    },

    async auditLog(filter: TAuditFilter) {
      // One row more than asked tells whether another page exists.
      const rows = await repository.auditPage({ ...filter, limit: filter.limit + 1 });
      const entries = rows.slice(0, filter.limit).map(toAuditEntry);
      const more = rows.length > filter.limit;
      return { entries, nextCursor: more ? entries[entries.length - 1]!.id : null };
    },

    /** Every user, or one page when the query holds any list parameter. */
    async listUsers(query: TAdminUserQuery = {}): Promise<TAdminUser[] | TAdminUserPage> {
      if (!asksForPage(query)) {
        return (await repository.listUsers()).map((row) => ({
          ...row,
          createdAt: isoTime(row.createdAt),
        }));
      }
      const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
      const { rows, ...page } = await repository.usersPage({ ...query, limit });
      return {
        items: rows.map(({ key: _, ...row }) => ({ ...row, createdAt: isoTime(row.createdAt) })),
        ...page,
      };
    },

    async changeRole(actor: TActor, id: string, role: TRole): Promise<TAdminUser> {
      const outcome = await deps.transaction(async (tx) => {
        const result = await tx.repository.setRoleKeepingAnAdmin(id, role);
        if (result.kind !== 'changed') return result;
        // Same value again, through the users table: drops its cached row (PGlite).
        await tx.users.update(id, { role });
        await tx.audit.record(actor, {
          action: 'admin.user.role',
          targetType: 'user',
          targetId: id,
          targetOwnerId: id,
          changes: [{ field: 'role', before: result.before, after: role }],
        });
        return result;
      });
      if (outcome.kind === 'not_found') throw adminErrors.userNotFound();
      if (outcome.kind === 'last_admin') throw adminErrors.lastAdmin();
      return userView(id);
    },
  };
}
