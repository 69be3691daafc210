import { WARNING_FRACTION } from '@portico/shared/certificates/state';
import {
  PROXY_CERTIFICATE_FILTERS,
  type TProxyListCounts,
  type TProxyListQuery,
} from '@portico/shared/proxy/api';
import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { and, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import { likeContaining } from '../lib/list-cursor';
import type { TDb } from './client';
import { keptReads, type TKeptReads, type TTimedValue } from './kept-reads';
import { afterPlaceholders, keysetPage, type TTimeKeyset, timeKeyset } from './keyset';
import { certificateStatus, proxyConfigurations as p } from './schema';
import type { TWriteCount } from './write-count';

// The proxy lists in pages (the user's and the admin's): their filters, keyset order and counts,
// built once here so both lists mean the same by each parameter (docs/PRODUCT.md#lists-in-pages).

type TCertificateFilter = (typeof PROXY_CERTIFICATE_FILTERS)[number];
type TSort = NonNullable<TProxyListQuery['sort']>;

/** Which proxies a list is over: `where` the rows, `key` names the same rows as text. */
export interface TProxyListScope {
  where: SQL | undefined;
  key: string;
}

export interface TProxyListTotals {
  total: number;
  counts: TProxyListCounts;
}

/** The tables a list's counts are read from: what the kept counts watch for writes. */
export const PROXY_LIST_COUNT_TABLES = ['proxy_configurations', 'certificate_status'] as const;

/** The sort's first key, as an expression indexes match (migration 0013). */
const expiryKey = sql`coalesce(${p.certificateExpiresAt}, 'infinity'::timestamptz)`;

const SORTS = {
  // Newest first; ids break ties of one timestamp.
  created: { key: sql`${p.createdAt}`, descending: true },
  // The certificate's end, soonest first; proxies without one last.
  expiry: { key: expiryKey, descending: false },
} satisfies Record<TSort, { key: SQL; descending: boolean }>;

// A certificate_status row's dates, as the certificate filters read them.
const notAfter = sql`(${certificateStatus.served}->>'notAfter')::timestamptz`;
const notBefore = sql`(${certificateStatus.served}->>'notBefore')::timestamptz`;
/** About when the certificate's dates come into warning (`expiring` below), to the microsecond. */
const warnedFrom = sql`${notAfter} - (${notAfter} - ${notBefore}) * ${WARNING_FRACTION}::float8`;
const timestampOf = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** What a certificate filter asks of the proxy's certificate_status row, at `now`. */
function certificateCondition(filter: TCertificateFilter, now: Date): SQL {
  const at = timestampOf(now);
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

/**
 * The WHERE, ORDER BY and LIMIT of one page (one row more than asked: it tells a next page).
 * `among`: the ids the filters found when the counts were read, if known; the page then reads
 * those rows by their key instead of every row of the scope, and still checks every filter.
 */
export function proxyListPlan(
  scope: SQL | undefined,
  query: TProxyListQuery & { limit: number },
  now: Date,
  among?: readonly string[],
): TProxyListPlan {
  const sort = query.sort ?? 'created';
  const { key, descending } = SORTS[sort];
  const keyset = timeKeyset(sort, key, p.id, descending, query.cursor);
  return {
    ...keyset,
    where: and(
      among ? inArray(p.id, [...among]) : undefined,
      filtersOf(scope, query, now),
      query.status ? eq(p.status, query.status) : undefined,
      keyset.after,
    ),
    limit: query.limit + 1,
    sort,
  };
}

/** How many rows of a whole list are read at a time (the user's and the admin's), and their order. */
export const LIST_PART = 500;
export const LIST_SORT = 'created';

const walkKeyset = timeKeyset(
  LIST_SORT,
  SORTS[LIST_SORT].key,
  p.id,
  SORTS[LIST_SORT].descending,
  undefined,
);

/**
 * A whole list's walk in parts (db/keyset.ts#keysetParts): the pages' key and order, and the rows
 * after a part's cursor through placeholders, so each statement of the walk is prepared once.
 * Built once here: the repositories that read it are built again for every transaction.
 */
export const WHOLE_LIST_WALK = {
  key: walkKeyset.key,
  orderBy: walkKeyset.orderBy,
  after: afterPlaceholders(SORTS[LIST_SORT].key, p.id, SORTS[LIST_SORT].descending),
  /** Read one row more than a part: it only tells that there is a next part. */
  limit: LIST_PART + 1,
};

/**
 * A search's matches are told by id with their counts when there are at most this many: the
 * page then reads them by key, so a search reads the scope's rows once, not twice.
 */
export const SEARCH_IDS_AT_MOST = 200;

export type TKeptProxyListCounts = TKeptReads<TGroup[]>;

type TGroup = {
  status: string;
  n: number;
  /** A search's: the ids of the `n` rows, when the search found few (SEARCH_IDS_AT_MOST). */
  ids: string[] | null;
} & Record<TCertificateFilter, number>;

/**
 * Per status, the rows matching every filter but the status: how many pass the certificate
 * filter (`n`) and how many pass each certificate filter. One grouped statement, so the caller's
 * matching rows are read once for every count (a search matches no index: each statement reads
 * them all). certificate_status has at most one row a proxy (its key), so the outer join counts
 * what the filter's `exists` finds. `until`: the first moment after `now` at which a matching
 * certificate comes into warning or expires, when the same rows count otherwise; a second early.
 */
async function groupedCounts(
  db: TDb,
  scope: SQL | undefined,
  query: TProxyListQuery,
  now: Date,
): Promise<TTimedValue<TGroup[]>> {
  const passing = query.certificate
    ? sql<number>`count(*) filter (where ${certificateCondition(query.certificate, now)})`
    : sql<number>`count(*)`;
  const perCertificate = Object.fromEntries(
    PROXY_CERTIFICATE_FILTERS.map((filter) => [
      filter,
      sql<number>`count(*) filter (where ${certificateCondition(filter, now)})`.mapWith(Number),
    ]),
  ) as Record<TCertificateFilter, SQL<number>>;
  const passingRow = query.certificate ? certificateCondition(query.certificate, now) : sql`true`;
  const ids = query.q
    ? sql<
        string[] | null
      >`case when ${passing} <= ${SEARCH_IDS_AT_MOST} then array_agg(${p.id}::text) filter (where ${passingRow}) end`
    : sql<null>`null`;
  const at = timestampOf(now);
  const next = sql<number | null>`floor(extract(epoch from min(least(
    case when ${warnedFrom} > ${at} then ${warnedFrom} end,
    case when ${notAfter} > ${at} then ${notAfter} end))) * 1000)::float8`;
  const rows = await db
    .select({ status: p.status, n: passing.mapWith(Number), ids, ...perCertificate, next })
    .from(p)
    .leftJoin(certificateStatus, eq(certificateStatus.configurationId, p.id))
    .where(filtersOf(scope, { ...query, certificate: undefined }, now))
    .groupBy(p.status);
  const nexts = rows.flatMap((r) => (r.next === null ? [] : [Number(r.next) - 1000]));
  return {
    value: rows.map(({ next: _, ...group }) => ({ ...group, ids: group.ids ?? null })),
    until: nexts.length ? new Date(Math.min(...nexts)) : null,
  };
}

/** What a kept count is known by: the scope and every filter but the status and the cursor. */
function countsKey(scope: TProxyListScope, query: TProxyListQuery): string {
  const { q, server, sshServerId, certificate } = query;
  return JSON.stringify([scope.key, q, server, sshServerId, certificate]);
}

/** The groups of the counts, from `kept` while the tables and the certificates' states hold. */
async function groupsOf(
  db: TDb,
  scope: TProxyListScope,
  query: TProxyListQuery,
  now: Date,
  kept: TKeptProxyListCounts | undefined,
): Promise<TGroup[]> {
  const read = () => groupedCounts(db, scope.where, query, now);
  return kept ? kept.read(countsKey(scope, query), now, read) : (await read()).value;
}

/** The groups of the chosen status, or all of them. */
function chosenGroups(grouped: TGroup[], query: TProxyListQuery): TGroup[] {
  return grouped.filter((r) => !query.status || r.status === query.status);
}

/**
 * Per status and per certificate filter, over the rows matching every other filter; `total`
 * counts the rows matching them all: per status, the rows passing the certificate filter; per
 * certificate filter, the rows of the chosen status (or all).
 */
function totalsOf(grouped: TGroup[], query: TProxyListQuery): TProxyListTotals {
  const status = Object.fromEntries(
    PROXY_STATUSES.map((s) => [s, grouped.find((r) => r.status === s)?.n ?? 0]),
  ) as TProxyListCounts['status'];
  const chosen = chosenGroups(grouped, query);
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

/** The ids every filter but the cursor finds, when a search's groups told them all. */
function foundIds(grouped: TGroup[], query: TProxyListQuery): string[] | undefined {
  if (!query.q) return undefined;
  const chosen = chosenGroups(grouped, query);
  const found = chosen.reduce((sum, r) => sum + r.n, 0);
  if (found > SEARCH_IDS_AT_MOST || chosen.some((r) => r.n > 0 && r.ids === null)) return undefined;
  return chosen.flatMap((r) => r.ids ?? []);
}

/** The counts of a list (totalsOf), read afresh or from `kept` (db/kept-reads.ts). */
export async function proxyListCounts(
  db: TDb,
  scope: TProxyListScope,
  query: TProxyListQuery,
  now: Date,
  kept?: TKeptProxyListCounts,
): Promise<TProxyListTotals> {
  return totalsOf(await groupsOf(db, scope, query, now, kept), query);
}

/**
 * The counts kept for every proxy list of the app (services.ts): on PGlite, where `writes` sees
 * every write; none on PostgreSQL, where other instances may write and it counts natively fast.
 */
export function keptProxyListCounts(writes: TWriteCount | undefined) {
  return writes ? keptReads<TGroup[]>(writes, PROXY_LIST_COUNT_TABLES) : undefined;
}

/**
 * One page of a proxy list: the counts over its filters (kept ones when `kept` is given), then
 * `select` reads the plan's rows (each with its `key`), among a search's found ids when the
 * counts told them.
 */
export async function proxyPage<T extends { id: string; key: string }>(
  db: TDb,
  scope: TProxyListScope,
  query: TProxyListQuery & { limit: number },
  now: Date,
  select: (plan: TProxyListPlan) => Promise<T[]>,
  kept?: TKeptProxyListCounts,
) {
  const grouped = await groupsOf(db, scope, query, now, kept);
  const plan = proxyListPlan(scope.where, query, now, foundIds(grouped, query));
  const { rows, nextCursor } = keysetPage(await select(plan), query.limit, plan.sort, (r) => r.id);
  return { rows, nextCursor, ...totalsOf(grouped, query) };
}
