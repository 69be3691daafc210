import type { TAttentionRow } from '@portico/shared/certificates/schemas';
import { ExternalLinkIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Breakable } from '@/components/ui/breakable';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDateTime, formatRelative } from '@/lib/format-date';
import { useCertificateTexts } from '@/lib/use-certificate-texts';
import { useCertificatesNeedingAttention } from '../api/queries';
import { AdminPage, QueryStates } from './admin-page';

function Expiry({ row }: { row: TAttentionRow }) {
  const { t } = useCertificateTexts();
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
  const { t } = useCertificateTexts();
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
  const { t, i18n } = useCertificateTexts();
  if (!row.checkedAt) return <>{t('certificate.admin.never')}</>;
  return (
    <time dateTime={row.checkedAt} title={formatDateTime(row.checkedAt) ?? undefined}>
      {formatRelative(row.checkedAt, i18n.language)}
    </time>
  );
}

function OpenButton({ row }: { row: TAttentionRow }) {
  const { t } = useCertificateTexts();
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

/** Every user's certificates needing attention, most urgent first (GET /api/admin/certificates). */
export function CertificatesPage() {
  const { t } = useCertificateTexts();
  const query = useCertificatesNeedingAttention();
  return (
    <AdminPage
      testId="admin-certificates-page"
      title={t('certificate.admin.title')}
      description={t('certificate.admin.description')}
    >
      <Card className="min-w-0">
        <CardContent className="pt-6">
          <QueryStates
            query={query}
            rowClassName="h-12"
            rows={3}
            errorText={t('certificate.admin.loadError')}
            emptyText={t('certificate.admin.empty')}
            isEmpty={(rows) => rows.length === 0}
          >
            {(rows) => (
              <>
                <div className="hidden lg:block">
                  <Table data-testid="attention-table">
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t('certificate.admin.domain')}</TableHead>
                        <TableHead>{t('certificate.admin.owner')}</TableHead>
                        <TableHead>{t('certificate.admin.expiry')}</TableHead>
                        <TableHead>{t('certificate.admin.reasons')}</TableHead>
                        <TableHead>{t('certificate.admin.lastCheck')}</TableHead>
                        <TableHead>
                          <span className="sr-only">{t('certificate.admin.open')}</span>
                        </TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {rows.map((row) => (
                        <TableRow
                          key={row.configurationId}
                          data-testid="attention-row"
                          data-proxy-id={row.configurationId}
                        >
                          <TableCell className="max-w-[14rem] font-medium [overflow-wrap:anywhere]">
                            <Breakable text={row.domain} />
                          </TableCell>
                          <TableCell className="max-w-[12rem] [overflow-wrap:anywhere]">
                            <div className="font-medium">{row.username}</div>
                            <div className="text-xs text-muted-foreground">
                              <Breakable text={row.email} />
                            </div>
                          </TableCell>
                          <TableCell>
                            <Expiry row={row} />
                          </TableCell>
                          <TableCell className="text-sm">
                            <Reasons row={row} />
                          </TableCell>
                          <TableCell className="whitespace-nowrap">
                            <Checked row={row} />
                          </TableCell>
                          <TableCell>
                            <OpenButton row={row} />
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
                <ul className="grid gap-3 sm:grid-cols-2 lg:hidden" data-testid="attention-cards">
                  {rows.map((row) => (
                    <li
                      key={row.configurationId}
                      className="grid gap-2 rounded-lg border border-border p-4 text-sm"
                      data-testid="attention-card"
                      data-proxy-id={row.configurationId}
                    >
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
                    </li>
                  ))}
                </ul>
              </>
            )}
          </QueryStates>
        </CardContent>
      </Card>
    </AdminPage>
  );
}
