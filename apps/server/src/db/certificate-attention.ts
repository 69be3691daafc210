import { WARNING_FRACTION } from '@portico/shared/certificates/state';
import { and, count, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { likeContaining } from '../lib/list-cursor';
import type { TDb } from './client';
import { keysetPage, timeKeyset } from './keyset';
import { certificateStatus as c, deployments, proxyConfigurations as p, users } from './schema';

// The admin's certificates that need attention, in pages: the reasons of
// modules/certificates/certificate-view.ts#attentionReasons asked in SQL, so a page is read
// without reading every certificate first (docs/PRODUCT.md#lists-in-pages).

const ATTENTION_SORT = 'expiry';

const served = (field: string) => sql`(${c.served}->>${field})`;
const onServer = (field: string) => sql`(${c.onServer}->>${field})`;
const checkOk = sql`(${c.lastCheck}->>'ok')::boolean`;

/** The latest certificate action of the proxy failed (repository's latestActions, per row). */
const actionFailed = sql`(select ${deployments.status} from ${deployments}
  where ${deployments.configurationId} = ${p.id} and ${deployments.trigger} in ('renew_test', 'renew')
  order by ${deployments.createdAt} desc limit 1) = 'failed'`;

/** Any attention reason at `now`: each line is one of attentionReasons' conditions. */
function needsAttention(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const notAfter = sql`${served('notAfter')}::timestamptz`;
  const notBefore = sql`${served('notBefore')}::timestamptz`;
  return sql`(
    ${notAfter} <= ${at}
    or ${notAfter} - ${at} < (${notAfter} - ${notBefore}) * ${WARNING_FRACTION}::float8
    or ${checkOk} = false
    or (${c.served} is not null and ${c.onServer} is not null and ${checkOk} = true
      and (${c.lastCheck}->>'checkedAt')::timestamptz >= ${onServer('readAt')}::timestamptz
      and ${served('fingerprint')} <> ${onServer('fingerprint')}
      and ${notBefore} < ${onServer('notBefore')}::timestamptz)
    or ((${c.renewal}->>'working')::boolean = false and ${c.renewal}->>'method' <> 'uploaded')
    or ${actionFailed}
  )`;
}

/** Soonest end first; certificates never seen served (a failed check, no date) before them. */
const expiryKey = sql`coalesce(${served('notAfter')}::timestamptz, 'epoch'::timestamptz)`;

/** One page of them, and how many match in all; `q` finds the proxy (as its list does), owner or e-mail. */
export async function attentionPage(
  db: TDb,
  query: { q?: string; cursor?: string; limit: number },
  now: Date,
) {
  // The lower-cased texts the lists search (schema): the proxy's domain, target and server
  // address, and its owner's name and e-mail; plain LIKEs, no case folded per row.
  const q = query.q ? likeContaining(query.q.toLowerCase()) : undefined;
  const where = and(
    eq(p.sslConfigured, true),
    needsAttention(now),
    q ? or(like(p.searchText, q), like(users.searchText, q)) : undefined,
  );
  const keyset = timeKeyset(ATTENTION_SORT, expiryKey, p.id, false, query.cursor);
  const read = await db
    .select({
      proxy: p,
      status: c,
      owner: { id: users.id, username: users.username, email: users.email },
      key: keyset.key,
    })
    .from(p)
    .innerJoin(users, eq(users.id, p.userId))
    .leftJoin(c, eq(c.configurationId, p.id))
    .where(and(where, keyset.after))
    .orderBy(...keyset.orderBy)
    .limit(query.limit + 1);
  const [counted] = await db
    .select({ n: count() })
    .from(p)
    .innerJoin(users, eq(users.id, p.userId))
    .leftJoin(c, eq(c.configurationId, p.id))
    .where(where);
  const { rows, nextCursor } = keysetPage(read, query.limit, ATTENTION_SORT, (r) => r.proxy.id);
  return { rows, nextCursor, total: counted?.n ?? 0 };
}
