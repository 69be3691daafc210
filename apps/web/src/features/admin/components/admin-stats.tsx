import { UsersIcon } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Breakable } from '@/components/ui/breakable';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useProxiesByUser, useUserStats } from '../api/queries';
import { sortByProxyCount } from '../lib/sort';

export function TotalUsersCard() {
  const { t } = useAdminTexts();
  const { data, isPending, isError } = useUserStats();
  return (
    <Card data-testid="admin-total-users">
      <CardHeader>
        <div className="flex items-center gap-2">
          <UsersIcon className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>{t('admin.stats.totalUsers')}</CardTitle>
        </div>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-9 w-16" />
        ) : isError ? (
          <Alert variant="destructive">
            <AlertDescription>{t('admin.errors.userStats')}</AlertDescription>
          </Alert>
        ) : (
          <p className="text-3xl font-bold" data-testid="admin-total-users-value">
            {data.totalUsers}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export function ProxiesByUserCard() {
  const { t } = useAdminTexts();
  const { data, isPending, isError } = useProxiesByUser();
  const rows = data ? sortByProxyCount(data) : [];
  return (
    <Card data-testid="admin-proxies-by-user">
      <CardHeader>
        <CardTitle>{t('admin.stats.proxiesByUser')}</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-3/4" />
          </div>
        ) : isError ? (
          <Alert variant="destructive">
            <AlertDescription>{t('admin.errors.proxyStats')}</AlertDescription>
          </Alert>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('admin.stats.noUsersWithProxies')}</p>
        ) : (
          <ul className="grid gap-2">
            {rows.map((row) => (
              <li
                key={row.userId}
                className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1"
                data-testid="admin-user-count"
              >
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  <span className="font-medium">{row.username}</span>{' '}
                  <span className="text-xs text-muted-foreground">
                    <Breakable text={row.email} />
                  </span>
                </span>
                <span className="text-sm whitespace-nowrap text-muted-foreground">
                  {t('admin.stats.proxyCount', { count: row.proxyCount })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
