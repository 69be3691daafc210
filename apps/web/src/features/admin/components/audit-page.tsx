import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { Label } from '@/components/ui/label';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useAuditLog } from '../api/audit-log';
import { useAdminUsers, useAllProxies } from '../api/queries';
import { auditTargetKey } from '../lib/audit';
import { AdminPage, QueryStates } from './admin-page';
import { AuditEntry } from './audit-entry';

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** One filter of the trail: a labelled select whose first choice is "all". */
function Filter({
  id,
  label,
  value,
  onChange,
  all,
  options = [],
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  all: string;
  options?: { value: string; label: string }[];
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={selectClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Audit trail: newest first, filter by user and by proxy, "load more" by cursor. */
export function AuditPage() {
  const { t } = useAdminTexts();
  const [userId, setUserId] = React.useState('');
  const [proxyId, setProxyId] = React.useState('');
  const users = useAdminUsers();
  const proxies = useAllProxies();
  const log = useAuditLog({ userId: userId || undefined, proxyId: proxyId || undefined });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  // Names instead of ids where the admin lists already hold them.
  const names = React.useMemo(() => {
    const map = new Map<string, string>();
    for (const p of proxies.data ?? []) map.set(auditTargetKey('proxy', p.id), p.domain);
    for (const u of users.data ?? []) map.set(auditTargetKey('user', u.id), u.username);
    return map;
  }, [proxies.data, users.data]);

  return (
    <AdminPage
      testId="admin-audit-page"
      title={t('admin.audit.title')}
      description={t('admin.audit.description')}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Filter
          id="audit-user"
          label={t('admin.audit.filterUser')}
          value={userId}
          onChange={setUserId}
          all={t('admin.audit.allUsers')}
          options={users.data?.map((u) => ({ value: u.id, label: `${u.username} (${u.email})` }))}
        />
        <Filter
          id="audit-proxy"
          label={t('admin.audit.filterProxy')}
          value={proxyId}
          onChange={setProxyId}
          all={t('admin.audit.allProxies')}
          options={proxies.data?.map((p) => ({ value: p.id, label: p.domain }))}
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
              <AuditEntry
                key={entry.id}
                entry={entry}
                targetName={names.get(auditTargetKey(entry.targetType, entry.targetId))}
              />
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
