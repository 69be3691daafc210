import type { TAttentionRow } from '@portico/shared/certificates/schemas';
import { ExternalLinkIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { ListPager, ListSearch } from '@/components/list-controls';
import { Breakable } from '@/components/ui/breakable';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { TableOrCards, type TColumn } from '@/components/ui/data-table';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import { useListUrlState } from '@/hooks/use-list-url-state';
import { formatDateTime, formatRelative } from '@/lib/format-date';
import { pageQuery } from '@/lib/list-url-state';
import { useAdminCertificateTexts, useAdminListTexts } from '@/lib/use-group-texts';
import { useCertificatesNeedingAttention } from '../api/queries';
import { domainAndOwnerColumns } from './admin-columns';
import { AdminPage, QueryStates } from './admin-page';

function Expiry({ row }: { row: TAttentionRow }) {
  const { t } = useAdminCertificateTexts();
  if (!row.state) return <span className="text-muted-foreground">{t('admin.common.na')}</span>;
  return (
    <ExpiryBadge
      state={row.state}
      daysLeft={row.daysLeft}
      checkFailed={row.reasons.includes('checkFailed')}
      notReloaded={row.reasons.includes('nginxNotReloaded')}
    />
  );
}

function Reasons({ row }: { row: TAttentionRow }) {
  const { t } = useAdminCertificateTexts();
  return (
    <ul className="grid gap-0.5" data-testid="attention-reasons">
      {row.reasons.map((reason) => (
        <li key={reason} data-reason={reason}>
          {t(`certificate.admin.reason.${reason}`)}
        </li>
      ))}
    </ul>
  );
}

function Checked({ row }: { row: TAttentionRow }) {
  const { t, i18n } = useAdminCertificateTexts();
  if (!row.checkedAt) return <>{t('certificate.admin.never')}</>;
  return (
    <time dateTime={row.checkedAt} title={formatDateTime(row.checkedAt) ?? undefined}>
      {formatRelative(row.checkedAt, i18n.language)}
    </time>
  );
}

function OpenButton({ row }: { row: TAttentionRow }) {
  const { t } = useAdminCertificateTexts();
  return (
    <Button asChild size="sm" variant="outline">
      <Link
        href={`/proxy-details/${row.configurationId}`}
        aria-label={t('certificate.admin.openOf', { domain: row.domain })}
      >
        <ExternalLinkIcon aria-hidden="true" />
        {t('certificate.admin.open')}
      </Link>
    </Button>
  );
}

/** A page holds this many certificates. */
export const ATTENTION_PAGE_SIZE = 25;
const SHAPE = { filters: {}, sorts: [] };

/**
 * Every user's certificates needing attention, a page at a time, soonest end first; searched on
 * the server, the search and page in the address (GET /api/admin/certificates).
 */
export function CertificatesPage() {
  const { t } = useAdminCertificateTexts();
  const lists = useAdminListTexts().t;
  const list = useListUrlState(SHAPE);
  const { state } = list;
  const page = useCertificatesNeedingAttention(
    React.useMemo(() => pageQuery(state, ATTENTION_PAGE_SIZE), [state]),
  );
  const query = { ...page, data: page.data?.items };
  const shared = domainAndOwnerColumns<TAttentionRow>(
    t('certificate.admin.domain'),
    t('certificate.admin.owner'),
    (row) => row.configurationId,
  );
  const columns: TColumn<TAttentionRow>[] = [
    shared.domain,
    shared.owner,
    { key: 'expiry', header: t('certificate.admin.expiry'), cell: (row) => <Expiry row={row} /> },
    {
      key: 'reasons',
      header: t('certificate.admin.reasons'),
      className: 'text-sm',
      cell: (row) => <Reasons row={row} />,
    },
    {
      key: 'checked',
      header: t('certificate.admin.lastCheck'),
      className: 'whitespace-nowrap',
      cell: (row) => <Checked row={row} />,
    },
    {
      key: 'open',
      header: <span className="sr-only">{t('certificate.admin.open')}</span>,
      cell: (row) => <OpenButton row={row} />,
    },
  ];
  return (
    <AdminPage
      testId="admin-certificates-page"
      title={t('certificate.admin.title')}
      description={t('certificate.admin.description')}
    >
      <Card className="min-w-0">
        <CardContent className="grid gap-4 pt-6">
          <ListSearch
            id="attention-search"
            value={state.q}
            onSearch={list.search}
            label={lists('lists.certificates.searchLabel')}
            placeholder={lists('lists.certificates.searchPlaceholder')}
            testId="attention-search"
          />
          <QueryStates
            query={query}
            rowClassName="h-12"
            rows={3}
            errorText={t('certificate.admin.loadError')}
            emptyText={
              state.q.trim() ? lists('lists.certificates.noMatch') : t('certificate.admin.empty')
            }
            isEmpty={(rows) => rows.length === 0}
          >
            {(rows) => (
              <TableOrCards
                rows={rows}
                rowKey={(row) => row.configurationId}
                columns={columns}
                testId="attention-table"
                rowAttributes={(row) => ({
                  'data-testid': 'attention-row',
                  'data-proxy-id': row.configurationId,
                })}
                cardsTestId="attention-cards"
                cardClassName="grid gap-2 text-sm"
                cardAttributes={(row) => ({
                  'data-testid': 'attention-card',
                  'data-proxy-id': row.configurationId,
                })}
                card={(row) => (
                  <>
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <span className="min-w-0 font-medium [overflow-wrap:anywhere]">
                        <Breakable text={row.domain} />
                      </span>
                      <Expiry row={row} />
                    </div>
                    <div className="[overflow-wrap:anywhere] text-muted-foreground">
                      {t('certificate.admin.owner')}: {row.username} (
                      <Breakable text={row.email} />)
                    </div>
                    <Reasons row={row} />
                    <div className="text-muted-foreground">
                      {t('certificate.admin.lastCheck')}: <Checked row={row} />
                    </div>
                    <div>
                      <OpenButton row={row} />
                    </div>
                  </>
                )}
              />
            )}
          </QueryStates>
          {page.data ? <ListPager list={list} nextCursor={page.data.nextCursor} /> : null}
        </CardContent>
      </Card>
    </AdminPage>
  );
}
