import type { TAdminProxyRow } from '@portico/shared/admin/api';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { EditProxyButton } from '@/components/edit-proxy-button';
import { ProxyStatusBadge } from '@/components/proxy-status-badge';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDateTime, formatRelative } from '@/lib/format-date';
import { useAllProxies } from '../api/queries';
import { AdminEdit, type TRenderAdminEdit } from './admin-edit';
import { QueryStates } from './admin-page';

const SKELETON_ROWS = 5;

function EditButton({ row, onEdit }: { row: TAdminProxyRow; onEdit: (r: TAdminProxyRow) => void }) {
  const { t } = useTranslation();
  return (
    <EditProxyButton
      status={row.status}
      label={t('admin.proxies.edit')}
      name={t('admin.proxies.editOf', { domain: row.domain })}
      onClick={() => onEdit(row)}
      testId="admin-proxy-edit"
    />
  );
}

function Created({ value }: { value: string }) {
  const { t, i18n } = useTranslation();
  return (
    <time dateTime={value} title={formatDateTime(value) ?? undefined}>
      {formatRelative(value, i18n.language) ?? t('admin.common.na')}
    </time>
  );
}

function Owner({ row }: { row: TAdminProxyRow }) {
  return (
    <div className="min-w-0 [overflow-wrap:anywhere]">
      <div className="font-medium">{row.username}</div>
      <div className="text-xs text-muted-foreground">
        <Breakable text={row.email} />
      </div>
    </div>
  );
}

/** All Proxies: a table on wide screens, cards on phones and tablets (the six columns need ~1000 px). */
export function AllProxies({ renderEdit }: { renderEdit: TRenderAdminEdit }) {
  const { t } = useTranslation();
  const proxies = useAllProxies();
  const { data } = proxies;
  const [editing, setEditing] = React.useState<TAdminProxyRow | null>(null);
  const notSet = t('admin.common.notSet');

  const body = (
    <QueryStates
      query={proxies}
      rowClassName="h-10"
      rows={SKELETON_ROWS}
      skeletonTestId="admin-proxy-skeleton"
      errorText={t('admin.errors.proxies')}
      emptyText={t('admin.proxies.empty')}
      isEmpty={(rows) => rows.length === 0}
    >
      {(rows) => (
        <>
          <div className="hidden lg:block">
            <Table data-testid="admin-proxy-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('admin.proxies.domain')}</TableHead>
                  <TableHead>{t('admin.proxies.target')}</TableHead>
                  <TableHead>{t('admin.proxies.status')}</TableHead>
                  <TableHead>{t('admin.proxies.owner')}</TableHead>
                  <TableHead>{t('admin.proxies.created')}</TableHead>
                  <TableHead>{t('admin.proxies.actions')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.id} data-testid="admin-proxy-row" data-proxy-id={row.id}>
                    <TableCell className="max-w-[14rem] font-medium [overflow-wrap:anywhere]">
                      <Breakable text={row.domain} />
                    </TableCell>
                    <TableCell className="max-w-[12rem] text-muted-foreground [overflow-wrap:anywhere]">
                      {row.targetServer ? <Breakable text={row.targetServer} /> : notSet}
                    </TableCell>
                    <TableCell>
                      <ProxyStatusBadge status={row.status} testId="admin-proxy-status" />
                    </TableCell>
                    <TableCell className="max-w-[14rem]">
                      <Owner row={row} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      <Created value={row.createdAt} />
                    </TableCell>
                    <TableCell>
                      <EditButton row={row} onEdit={setEditing} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <ul className="grid gap-3 sm:grid-cols-2 lg:hidden" data-testid="admin-proxy-cards">
            {rows.map((row) => (
              <li
                key={row.id}
                className="rounded-lg border border-border p-4"
                data-testid="admin-proxy-card"
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <span className="min-w-0 font-medium [overflow-wrap:anywhere]">
                    <Breakable text={row.domain} />
                  </span>
                  <ProxyStatusBadge status={row.status} testId="admin-proxy-status" />
                </div>
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
                      <Owner row={row} />
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
              </li>
            ))}
          </ul>
        </>
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
              {t('admin.proxies.total', { count: data.length })}
            </span>
          ) : null}
        </CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
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
