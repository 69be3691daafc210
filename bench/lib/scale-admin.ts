import { auditLog, users } from '../../apps/server/src/db/schema';
import { insertManyProxies } from '../../apps/server/test/support/many-proxies';
import { percentile, scaleApp, settled, signedIn, timed, touchProxies } from './scale-app';

export const ADMIN_VIEW_USERS = 100;

export interface TAdminViewTimes {
  pageP50: number;
  pageP99: number;
  /** The first page right after a write to the proxies (its counts read again). */
  writtenP99: number;
  searchP50: number;
  searchP99: number;
  usersP99: number;
  /** The audit trail's first page (50 entries, each with its target's name). */
  auditP99: number;
}

/**
 * The admin's views over `n` proxies spread evenly over ADMIN_VIEW_USERS accounts (inserted
 * straight into the tables; only the admin signs in): the all-proxies list's first page and a
 * search, the users list's first page, and the audit trail's first page over one entry per
 * proxy (names looked up with the page), REQUESTS each, in process (app.inject).
 */
export async function adminViewTimes(n: number): Promise<TAdminViewTimes> {
  const t = await scaleApp();
  try {
    const admin = await signedIn(t, 'admin');
    const tag = `a${process.pid}-${n}`;
    const owners = await t.database.db
      .insert(users)
      .values(
        Array.from({ length: ADMIN_VIEW_USERS }, (_, i) => ({
          username: `${tag}-u${i}`,
          email: `${tag}-u${i}@example.com`,
          passwordHash: 'not-a-hash: nobody signs in as these',
        })),
      )
      .returning({ id: users.id });
    const each = Math.ceil(n / ADMIN_VIEW_USERS);
    for (const [i, owner] of owners.entries()) {
      const count = Math.min(each, n - i * each);
      if (count <= 0) break;
      const ids = await insertManyProxies(t.database.db, owner.id, count, {
        prefix: `${tag}-u${i}`,
      });
      await t.database.db.insert(auditLog).values(
        ids.map((id) => ({
          actorId: owner.id,
          actorUsername: `${tag}-u${i}`,
          action: 'proxy.create',
          targetType: 'proxy_configuration',
          targetId: id,
          targetOwnerId: owner.id,
        })),
      );
    }
    await settled(t);
    const first = () => admin.get('/api/admin/all-proxies?limit=50');
    const page = await timed(first);
    const written = await timed(first, touchProxies(t));
    // A domain of one account, a new one each time, as an admin looks one up.
    const search = await timed((i) =>
      admin.get(
        `/api/admin/all-proxies?limit=50&q=-u${i % ADMIN_VIEW_USERS}-${Math.floor(i / ADMIN_VIEW_USERS) % each}.example`,
      ),
    );
    const usersPage = await timed(() => admin.get('/api/admin/users?limit=50'));
    const audit = await timed(() => admin.get('/api/admin/audit-log?limit=50'));
    return {
      pageP50: percentile(page, 50),
      pageP99: percentile(page, 99),
      writtenP99: percentile(written, 99),
      searchP50: percentile(search, 50),
      searchP99: percentile(search, 99),
      usersP99: percentile(usersPage, 99),
      auditP99: percentile(audit, 99),
    };
  } finally {
    await t.close();
  }
}
