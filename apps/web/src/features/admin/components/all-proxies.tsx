import type { TAdminProxyRow } from '@portico/shared/admin/api';
import * as React from 'react';
import { EditProxyButton } from '@/components/edit-proxy-button';
import { ListPager } from '@/components/list-controls';
import { ProxyListFilters, proxyListShape } from '@/components/proxy-list-filters';
import { ProxySummary } from '@/components/proxy-summary';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { TableOrCards, type TColumn } from '@/components/ui/data-table';
import { useListUrlState } from '@/hooks/use-list-url-state';
import { formatMoment, formatRelative } from '@/lib/format-date';
import { pageQuery } from '@/lib/list-url-state';
import { proxySummary } from '@/lib/proxy-summary';
import { useAdminListTexts, useAdminTexts } from '@/lib/use-group-texts';
import { useAllProxiesPage } from '../api/queries';
import { DomainLink, domainAndOwnerColumns, OwnerCell } from './admin-columns';
import { AdminEdit, type TRenderAdminEdit } from './admin-edit';
import { QueryStates } from './admin-page';

const SKELETON_ROWS = 5;
/** Rows a page holds: a screen or two of the table. */
export const ALL_PROXIES_PAGE_SIZE = 25;
/** Its view in the address beside the admin's own list's: `all_q`, `all_status`, …. */
const SHAPE = proxyListShape('all');

/** The same summary the owner sees (the admin list has no certificate watch beside it). */
const summaryOf = (row: TAdminProxyRow) =>
  proxySummary({
    status: row.status,
    serving: row.serving,
    lastFailure: row.lastFailure,
    adopted: row.adoptedFile !== null,
  });

function EditButton({ row, onEdit }: { row: TAdminProxyRow; onEdit: (r: TAdminProxyRow) => void }) {
  const { t } = useAdminTexts();
  return (
    <EditProxyButton
      status={row.status}
      adoption={row.adoptedFile === null ? undefined : { file: row.adoptedFile }}
      label={t('admin.proxies.edit')}
      name={t('admin.proxies.editOf', { domain: row.domain })}
      onClick={() => onEdit(row)}
      testId="admin-proxy-edit"
    />
  );
}

function Created({ value }: { value: string }) {
  const { t, i18n } = useAdminTexts();
  return (
    <time dateTime={value} title={formatMoment(value, i18n.language) ?? undefined}>
      {formatRelative(value, i18n.language) ?? t('admin.common.na')}
    </time>
  );
}

/** All Proxies: a table on wide screens, cards on phones and tablets (the six columns need ~1000 px). */
export function AllProxies({ renderEdit }: { renderEdit: TRenderAdminEdit }) {
  const { t } = useAdminListTexts();
  const list = useListUrlState(SHAPE);
  const { state } = list;
  const query = React.useMemo(() => pageQuery(state, ALL_PROXIES_PAGE_SIZE), [state]);
  const page = useAllProxiesPage(query);
  const { data } = page;
  const proxies = { ...page, data: data?.items };
  const narrowed = state.q.trim() !== '' || Object.keys(state.filters).length > 0;
  const [editing, setEditing] = React.useState<TAdminProxyRow | null>(null);
  const notSet = t('admin.common.notSet');
  const shared = domainAndOwnerColumns<TAdminProxyRow>(
    t('admin.proxies.domain'),
    t('admin.proxies.owner'),
    (row) => row.id,
  );
  const columns: TColumn<TAdminProxyRow>[] = [
    shared.domain,
    {
      key: 'target',
      header: t('admin.proxies.target'),
      className: 'max-w-[12rem] text-muted-foreground [overflow-wrap:anywhere]',
      cell: (row) => (row.targetServer ? <Breakable text={row.targetServer} /> : notSet),
    },
    {
      key: 'status',
      header: t('admin.proxies.status'),
      className: 'min-w-[9rem] max-w-[18rem]',
      cell: (row) => <ProxySummary summary={summaryOf(row)} compact />,
    },
    shared.owner,
    {
      key: 'created',
      header: t('admin.proxies.created'),
      className: 'whitespace-nowrap',
      cell: (row) => <Created value={row.createdAt} />,
    },
    {
      key: 'actions',
      header: t('admin.proxies.actions'),
      cell: (row) => <EditButton row={row} onEdit={setEditing} />,
    },
  ];

  const body = (
    <QueryStates
      query={proxies}
      rowClassName="h-10"
      rows={SKELETON_ROWS}
      skeletonTestId="admin-proxy-skeleton"
      errorText={t('admin.errors.proxies')}
      emptyText={narrowed ? t('lists.allProxies.noMatch') : t('admin.proxies.empty')}
      isEmpty={(rows) => rows.length === 0}
    >
      {(rows) => (
        <TableOrCards
          rows={rows}
          rowKey={(row) => row.id}
          columns={columns}
          testId="admin-proxy-table"
          rowAttributes={(row) => ({ 'data-testid': 'admin-proxy-row', 'data-proxy-id': row.id })}
          cardsTestId="admin-proxy-cards"
          cardAttributes={() => ({ 'data-testid': 'admin-proxy-card' })}
          card={(row) => (
            <>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <span className="min-w-0 font-medium [overflow-wrap:anywhere]">
                  <DomainLink id={row.id} domain={row.domain} />
                </span>
              </div>
              <ProxySummary summary={summaryOf(row)} className="mt-2" />
              <dl className="mt-2 grid gap-1 text-sm">
                <div className="[overflow-wrap:anywhere]">
                  <dt className="inline text-muted-foreground">{t('admin.proxies.target')}: </dt>
                  <dd className="inline">
                    {row.targetServer ? <Breakable text={row.targetServer} /> : notSet}
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">{t('admin.proxies.owner')}</dt>
                  <dd>
                    <OwnerCell username={row.username} email={row.email} />
                  </dd>
                </div>
                <div>
                  <dt className="inline text-muted-foreground">{t('admin.proxies.created')}: </dt>
                  <dd className="inline">
                    <Created value={row.createdAt} />
                  </dd>
                </div>
              </dl>
              <div className="mt-3">
                <EditButton row={row} onEdit={setEditing} />
              </div>
            </>
          )}
        />
      )}
    </QueryStates>
  );

  return (
    <Card data-testid="admin-all-proxies" className="min-w-0">
      <CardHeader>
        <CardTitle>
          {t('admin.proxies.title')}
          {data ? (
            <span
              className="ml-2 text-base font-normal text-muted-foreground"
              data-testid="admin-proxy-total"
            >
              {t('admin.proxies.total', { count: data.total })}
            </span>
          ) : null}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {data ? (
          <ProxyListFilters
            list={list}
            counts={data.counts}
            searchLabel={t('lists.allProxies.searchLabel')}
            testIdPrefix="admin-"
          />
        ) : null}
        {body}
        {data ? <ListPager list={list} nextCursor={data.nextCursor} /> : null}
      </CardContent>
      {editing ? (
        <AdminEdit
          key={editing.id}
          row={editing}
          onClose={() => setEditing(null)}
          renderEdit={renderEdit}
        />
      ) : null}
    </Card>
  );
}
