import { WARNING_FRACTION } from '@portico/shared/certificates/state';
import {
  PROXY_CERTIFICATE_FILTERS,
  type TProxyListCounts,
  type TProxyListQuery,
} from '@portico/shared/proxy/api';
import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { and, eq, like, type SQL, sql } from 'drizzle-orm';
import { likeContaining } from '../lib/list-cursor';
import type { TDb } from './client';
import { keysetPage, type TTimeKeyset, timeKeyset } from './keyset';
import { certificateStatus, proxyConfigurations as p } from './schema';

// The proxy lists in pages (the user's and the admin's): their filters, keyset order and counts,
// built once here so both lists mean the same by each parameter (docs/PRODUCT.md#lists-in-pages).

type TCertificateFilter = (typeof PROXY_CERTIFICATE_FILTERS)[number];
type TSort = NonNullable<TProxyListQuery['sort']>;

/** The sort's first key, as an expression indexes match (migration 0013). */
const expiryKey = sql`coalesce(${p.certificateExpiresAt}, 'infinity'::timestamptz)`;

const SORTS = {
  // Newest first; ids break ties of one timestamp.
  created: { key: sql`${p.createdAt}`, descending: true },
  // The certificate's end, soonest first; proxies without one last.
  expiry: { key: expiryKey, descending: false },
} satisfies Record<TSort, { key: SQL; descending: boolean }>;

/** What a certificate filter asks of the proxy's certificate_status row, at `now`. */
function certificateCondition(filter: TCertificateFilter, now: Date): SQL {
  const notAfter = sql`(${certificateStatus.served}->>'notAfter')::timestamptz`;
  const notBefore = sql`(${certificateStatus.served}->>'notBefore')::timestamptz`;
  const at = sql`${now.toISOString()}::timestamptz`;
  switch (filter) {
    case 'expired':
      return sql`${notAfter} <= ${at}`;
    // The dates' warning or danger (shared/certificates/state.ts#expiryState), not yet expired:
    // danger's fraction is below warning's, so below warning's covers both.
    case 'expiring':
      return sql`${notAfter} > ${at} and ${notAfter} - ${at} < (${notAfter} - ${notBefore}) * ${WARNING_FRACTION}::float8`;
    case 'renewal_failing':
      return sql`(${certificateStatus.renewal}->>'working')::boolean = false`;
  }
}

function hasCertificate(filter: TCertificateFilter, now: Date): SQL {
  return sql`exists (select 1 from ${certificateStatus} where ${certificateStatus.configurationId} = ${p.id} and ${certificateCondition(filter, now)})`;
}

/** Every filter but the status and the cursor: what the counts are taken over. */
function filtersOf(scope: SQL | undefined, query: TProxyListQuery, now: Date): SQL | undefined {
  // search_text is stored lower-cased (schema): a plain LIKE of the lower-cased words.
  const q = query.q ? likeContaining(query.q.toLowerCase()) : undefined;
  return and(
    scope,
    q ? like(p.searchText, q) : undefined,
    query.server ? sql`lower(${p.serverIp}) = ${query.server.toLowerCase()}` : undefined,
    query.sshServerId ? eq(p.sshServerId, query.sshServerId.toLowerCase()) : undefined,
    query.certificate ? hasCertificate(query.certificate, now) : undefined,
  );
}

export interface TProxyListPlan extends TTimeKeyset {
  where: SQL | undefined;
  limit: number;
  sort: TSort;
}

/** The WHERE, ORDER BY and LIMIT of one page (one row more than asked: it tells a next page). */
export function proxyListPlan(
  scope: SQL | undefined,
  query: TProxyListQuery & { limit: number },
  now: Date,
): TProxyListPlan {
  const sort = query.sort ?? 'created';
  const { key, descending } = SORTS[sort];
  const keyset = timeKeyset(sort, key, p.id, descending, query.cursor);
  return {
    ...keyset,
    where: and(
      filtersOf(scope, query, now),
      query.status ? eq(p.status, query.status) : undefined,
      keyset.after,
    ),
    limit: query.limit + 1,
    sort,
  };
}

/**
 * Per status and per certificate filter, over the rows matching every other filter; `total`
 * counts the rows matching them all. One grouped statement, so the caller's matching rows are
 * read once for every count (a search matches no index: each statement reads them all): per
 * status, the rows passing the certificate filter; per certificate filter, the rows of the
 * chosen status (or all). certificate_status has at most one row a proxy (its key), so the
 * outer join counts what the filter's `exists` finds.
 */
export async function proxyListCounts(
  db: TDb,
  scope: SQL | undefined,
  query: TProxyListQuery,
  now: Date,
): Promise<{ total: number; counts: TProxyListCounts }> {
  const passing = query.certificate
    ? sql<number>`count(*) filter (where ${certificateCondition(query.certificate, now)})`
    : sql<number>`count(*)`;
  const perCertificate = Object.fromEntries(
    PROXY_CERTIFICATE_FILTERS.map((filter) => [
      filter,
      sql<number>`count(*) filter (where ${certificateCondition(filter, now)})`.mapWith(Number),
    ]),
  ) as Record<TCertificateFilter, SQL<number>>;
  const grouped = await db
    .select({ status: p.status, n: passing.mapWith(Number), ...perCertificate })
    .from(p)
    .leftJoin(certificateStatus, eq(certificateStatus.configurationId, p.id))
    .where(filtersOf(scope, { ...query, certificate: undefined }, now))
    .groupBy(p.status);
  const status = Object.fromEntries(
    PROXY_STATUSES.map((s) => [s, grouped.find((r) => r.status === s)?.n ?? 0]),
  ) as TProxyListCounts['status'];
  const chosen = grouped.filter((r) => !query.status || r.status === query.status);
  return {
    total: query.status
      ? status[query.status]
      : Object.values(status).reduce((sum, n) => sum + n, 0),
    counts: {
      status,
      certificate: Object.fromEntries(
        PROXY_CERTIFICATE_FILTERS.map((f) => [f, chosen.reduce((sum, r) => sum + r[f], 0)]),
      ) as TProxyListCounts['certificate'],
    },
  };
}

/**
 * One page of a proxy list: `select` reads the plan's rows (each with its `key`), then the
 * counts are taken over the same filters.
 */
export async function proxyPage<T extends { id: string; key: string }>(
  db: TDb,
  scope: SQL | undefined,
  query: TProxyListQuery & { limit: number },
  now: Date,
  select: (plan: TProxyListPlan) => Promise<T[]>,
) {
  const plan = proxyListPlan(scope, query, now);
  const { rows, nextCursor } = keysetPage(await select(plan), query.limit, plan.sort, (r) => r.id);
  return { rows, nextCursor, ...(await proxyListCounts(db, scope, query, now)) };
}
