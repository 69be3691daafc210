import {
  PROXY_CERTIFICATE_FILTERS,
  PROXY_SORTS,
  type TProxyListCounts,
} from '@portico/shared/proxy/api';
import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { FilterChips, ListSearch, type TChip } from '@/components/list-controls';
import type { TListUrlControls } from '@/hooks/use-list-url-state';
import type { TListUrlShape } from '@/lib/list-url-state';
import { statusLabelKey } from '@/lib/proxy-status';
import { useListTexts } from '@/lib/use-group-texts';

type TFilter = 'status' | 'certificate';

/**
 * What a proxy list (home's, the admin's of all) takes from the address: the server's
 * ZProxyListQuery less `server`; the admin's under a prefix, as it shares home with the owner's.
 */
export function proxyListShape(prefix?: string): TListUrlShape<TFilter> {
  return {
    filters: { status: PROXY_STATUSES, certificate: PROXY_CERTIFICATE_FILTERS },
    sorts: PROXY_SORTS,
    prefix,
  };
}

export type TProxyListControls = TListUrlControls<TFilter>;

/**
 * The search and the filter chips, each chip with how many proxies it would show: statuses
 * that hold none are left out (unless chosen), so a phone shows a short row.
 */
export function ProxyListFilters({
  list,
  counts,
  searchLabel,
  testIdPrefix = '',
}: {
  list: TProxyListControls;
  counts: TProxyListCounts | undefined;
  searchLabel: string;
  /** Before each control's test id: a second list on the screen tells its own apart. */
  testIdPrefix?: string;
}) {
  const { t } = useListTexts();
  const { state } = list;
  const status: Partial<TProxyListCounts['status']> = counts?.status ?? {};
  const all = Object.values(status).reduce((sum, n) => sum + (n ?? 0), 0);
  const statusChips: TChip[] = [
    { value: undefined, label: t('lists.all', { count: all }) },
    ...PROXY_STATUSES.filter((s) => (status[s] ?? 0) > 0 || state.filters.status === s).map(
      (s) => ({
        value: s,
        label: t('lists.chip', { label: t(statusLabelKey(s)), count: status[s] ?? 0 }),
      }),
    ),
  ];
  const certificateChips: TChip[] = PROXY_CERTIFICATE_FILTERS.filter(
    (c) => (counts?.certificate[c] ?? 0) > 0 || state.filters.certificate === c,
  ).map((c) => ({
    value: c,
    label: t(`lists.proxies.certificate.${c}`, { count: counts?.certificate[c] ?? 0 }),
  }));

  return (
    <div className="grid min-w-0 gap-2" data-testid={`${testIdPrefix}proxy-list-filters`}>
      <ListSearch
        id={`${testIdPrefix}proxy-search`}
        value={state.q}
        onSearch={list.search}
        label={searchLabel}
        placeholder={t('lists.proxies.searchPlaceholder')}
        testId={`${testIdPrefix}proxy-search`}
      />
      <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-2">
        <FilterChips
          label={t('lists.proxies.statusFilter')}
          chips={statusChips}
          chosen={state.filters.status}
          onChoose={(value) => list.filter('status', value)}
          testId={`${testIdPrefix}status-chips`}
        />
        {certificateChips.length > 0 ? (
          <FilterChips
            label={t('lists.proxies.certificateFilter')}
            chips={certificateChips}
            chosen={state.filters.certificate}
            onChoose={(value) => list.filter('certificate', value)}
            testId={`${testIdPrefix}certificate-chips`}
          />
        ) : null}
      </div>
    </div>
  );
}
