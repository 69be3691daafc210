import { type TAuditEntry, ZAuditQuery } from '@portico/shared/admin/api';
import { useLocation, useSearch } from 'wouter';
import { BusyButton } from '@/components/ui/busy-button';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useAuditLog } from '../api/audit-log';
import { useAdminUsersPage, useAllProxiesPage } from '../api/queries';
import { AdminPage, QueryStates } from './admin-page';
import { AuditEntry } from './audit-entry';
import { SearchPicker, type TPickerResults } from './search-picker';

/** A picker's list holds this many of the server's matches. */
const PICKER_LIMIT = '8';

/**
 * The filters kept in the address (`?user=…&proxy=…`); what the API would refuse as an id is
 * dropped (its own schema decides).
 */
function useAuditFilters() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const read = (name: string) => {
    const value = params.get(name) ?? '';
    return ZAuditQuery.shape.userId.safeParse(value).success ? value : '';
  };
  const set = (name: 'user' | 'proxy', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    const query = next.toString();
    // A step of its own: back returns to the previous filter.
    navigate(`${location}${query ? `?${query}` : ''}`);
  };
  return { userId: read('user'), proxyId: read('proxy'), set };
}

function useUserResults(q: string): TPickerResults {
  const page = useAdminUsersPage({ limit: PICKER_LIMIT, ...(q ? { q } : {}) });
  return {
    options: page.data?.items.map((u) => ({ value: u.id, label: `${u.username} (${u.email})` })),
    loading: page.isFetching,
    failed: page.isError,
  };
}

function useProxyResults(q: string): TPickerResults {
  const page = useAllProxiesPage({ limit: PICKER_LIMIT, ...(q ? { q } : {}) });
  return {
    options: page.data?.items.map((p) => ({ value: p.id, label: p.domain })),
    loading: page.isFetching,
    failed: page.isError,
  };
}

/** A chosen filter's name, from the entries it shows (the page keeps no list to look it up in). */
function userName(entries: TAuditEntry[], id: string): string | undefined {
  for (const e of entries) {
    if (e.targetType === 'user' && e.targetId === id && e.targetName) return e.targetName;
    if (e.actorId === id && e.actorUsername) return e.actorUsername;
  }
  return undefined;
}
function proxyName(entries: TAuditEntry[], id: string): string | undefined {
  return entries.find((e) => e.targetId === id && e.targetName)?.targetName ?? undefined;
}

/** Audit trail: newest first, filter by user and by proxy (in the address), "load more" by cursor. */
export function AuditPage() {
  const { t } = useAdminTexts();
  const { userId, proxyId, set } = useAuditFilters();
  const log = useAuditLog({ userId: userId || undefined, proxyId: proxyId || undefined });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <AdminPage
      testId="admin-audit-page"
      title={t('admin.audit.title')}
      description={t('admin.audit.description')}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SearchPicker
          id="audit-user"
          label={t('admin.audit.filterUser')}
          allLabel={t('admin.audit.allUsers')}
          placeholder={t('admin.audit.searchUsers')}
          value={userId}
          valueLabel={userName(entries, userId)}
          onChange={(value) => set('user', value)}
          useResults={useUserResults}
        />
        <SearchPicker
          id="audit-proxy"
          label={t('admin.audit.filterProxy')}
          allLabel={t('admin.audit.allProxies')}
          placeholder={t('admin.audit.searchProxies')}
          value={proxyId}
          valueLabel={proxyName(entries, proxyId)}
          onChange={(value) => set('proxy', value)}
          useResults={useProxyResults}
        />
      </div>
      <QueryStates
        query={log}
        rowClassName="h-16"
        errorText={t('admin.errors.audit')}
        emptyText={t('admin.audit.empty')}
        isEmpty={() => entries.length === 0}
      >
        {() => (
          <ol className="grid gap-3" aria-label={t('admin.audit.title')}>
            {entries.map((entry) => (
              <AuditEntry key={entry.id} entry={entry} targetName={entry.targetName ?? undefined} />
            ))}
          </ol>
        )}
      </QueryStates>
      {log.hasNextPage ? (
        <div>
          <BusyButton
            busy={log.isFetchingNextPage}
            variant="outline"
            onClick={() => void log.fetchNextPage()}
            data-testid="audit-load-more"
          >
            {t('admin.audit.loadMore')}
          </BusyButton>
        </div>
      ) : null}
    </AdminPage>
  );
}
