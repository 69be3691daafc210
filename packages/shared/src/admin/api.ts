import { z } from 'zod';
import { ZRole } from '../auth/schemas';
import { pageOf, ZPageQuery } from '../lists/page';
import { ZProxyListCounts } from '../proxy/api';
import { ZProxyStatus } from '../proxy/schemas';
import { ZLastFailure, ZServing } from '../proxy/server-record';

// Shapes of the admin calls (docs/PRODUCT.md#admin-screens and #api).

export const ZUserStats = z.object({ totalUsers: z.number() });

export const ZProxiesByUser = z.array(
  z.object({ userId: z.string(), username: z.string(), email: z.string(), proxyCount: z.number() }),
);

export const ZAdminProxyRow = z.object({
  id: z.string(),
  domain: z.string(),
  targetServer: z.string().nullable(),
  status: ZProxyStatus,
  /** What the server serves for it, by the record (the same summary as the owner's screens). */
  serving: ZServing,
  /**
   * The hand-written file of a site adopted as it is (docs/PRODUCT.md#sites-on-this-server),
   * which Portico never writes; null for a proxy Portico deploys.
   */
  adoptedFile: z.string().nullable(),
  /** The last run's failure in the reader's language; null after a success. */
  lastFailure: ZLastFailure.nullable(),
  createdAt: z.string(),
  userId: z.string(),
  username: z.string(),
  email: z.string(),
});
export type TAdminProxyRow = z.infer<typeof ZAdminProxyRow>;

/** GET /api/admin/all-proxies for a page (the query is the user list's, ZProxyListQuery). */
export const ZAdminProxyPage = pageOf(ZAdminProxyRow).extend({ counts: ZProxyListCounts });
export type TAdminProxyPage = z.infer<typeof ZAdminProxyPage>;

/** What an audit change holds instead of a secret's value: neither value ever reaches the trail. */
export const AUDIT_SECRET_MARK = '[changed]';

const ZAuditChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
const ZAuditEntry = z.object({
  id: z.number(),
  actorId: z.string().nullable(),
  actorUsername: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetOwnerId: z.string().nullable(),
  /**
   * The target's name today (a proxy's domain, a user's username, a saved server's name); null
   * when the target is gone. Optional: older servers do not send it.
   */
  targetName: z.string().nullable().optional(),
  changes: z.array(ZAuditChange),
  createdAt: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/** GET /api/admin/audit-log: newest first, filterable by user (actor or owner) and by proxy. */
export const ZAuditQuery = z.object({
  userId: z.uuid('validation.invalidId').optional(),
  proxyId: z.uuid('validation.invalidId').optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ZAuditPage = z.object({
  entries: z.array(ZAuditEntry),
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: z.number().nullable(),
});

export const ZAdminUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: ZRole,
  proxyCount: z.number(),
  createdAt: z.string(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

/** GET /api/admin/users for a page: `q` finds the username or e-mail; oldest first. */
export const ZAdminUserQuery = ZPageQuery.extend({
  role: ZRole.optional(),
});
export type TAdminUserQuery = z.infer<typeof ZAdminUserQuery>;
export const ZAdminUserPage = pageOf(ZAdminUser).extend({
  /** Users matching the search, per role. */
  counts: z.object({ role: z.record(ZRole, z.number()) }),
});
export type TAdminUserPage = z.infer<typeof ZAdminUserPage>;

/** PATCH /api/admin/users/{id}/role; the last admin cannot be demoted (409 last_admin). */
export const ZRoleChange = z.object({ role: ZRole });
