import type { TAdminUser } from '@portico/shared/admin/api';
import type { TPublicUser } from '@portico/shared/auth/schemas';
import * as React from 'react';
import { ListPager, ListSearch } from '@/components/list-controls';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { useListUrlState } from '@/hooks/use-list-url-state';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { pageQuery } from '@/lib/list-url-state';
import { useAdminListTexts, useAdminTexts } from '@/lib/use-group-texts';
import { useChangeRole } from '../api/mutations';
import { useAdminUsersPage } from '../api/queries';
import { AdminPage, QueryStates } from './admin-page';
import { UserLimitsDialog } from './user-limits-dialog';

/** A page holds this many accounts. */
export const USERS_PAGE_SIZE = 25;
const SHAPE = { filters: {}, sorts: [] };

/**
 * Every user with role and proxy count, a page at a time and searched on the server (the
 * search and page in the address); promote or demote after a confirmation; their limits.
 */
export function UsersPage({ currentUser }: { currentUser?: Pick<TPublicUser, 'id'> }) {
  const { t } = useAdminTexts();
  const lists = useAdminListTexts().t;
  const list = useListUrlState(SHAPE);
  const { state } = list;
  const page = useAdminUsersPage(React.useMemo(() => pageQuery(state, USERS_PAGE_SIZE), [state]));
  const users = { ...page, data: page.data?.items };
  const [target, setTarget] = React.useState<TAdminUser | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [limitsOf, setLimitsOf] = React.useState<TAdminUser | null>(null);
  const change = useChangeRole();
  const nextRole = target?.role === 'admin' ? 'user' : 'admin';

  const confirm = async () => {
    if (!target) return;
    setError(null);
    try {
      await change.mutateAsync({ id: target.id, role: nextRole });
      toast({
        title: t(nextRole === 'admin' ? 'admin.users.promoted' : 'admin.users.demoted', {
          username: target.username,
        }),
      });
      setTarget(null);
    } catch (err) {
      setError(errorDescription(err, t, t('admin.users.changeFailed')));
    }
  };

  return (
    <AdminPage
      testId="admin-users-page"
      title={t('admin.users.title')}
      description={t('admin.users.description')}
    >
      <ListSearch
        id="admin-user-search"
        value={state.q}
        onSearch={list.search}
        label={lists('lists.users.searchLabel')}
        placeholder={lists('lists.users.searchPlaceholder')}
        testId="admin-user-search"
      />
      <QueryStates
        query={users}
        rowClassName="h-14"
        errorText={t('admin.errors.users')}
        emptyText={lists('lists.users.noMatch')}
        isEmpty={(rows) => rows.length === 0}
      >
        {(data) => (
          <ul className="grid gap-3">
            {data.map((user) => (
              <li
                key={user.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-4"
                data-testid="admin-user"
              >
                <div className="min-w-0 break-all">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{user.username}</span>
                    <Badge variant={user.role === 'admin' ? 'default' : 'outline'}>
                      {t(`admin.users.roles.${user.role}`)}
                    </Badge>
                    {user.id === currentUser?.id ? (
                      <span className="text-xs text-muted-foreground">{t('admin.users.you')}</span>
                    ) : null}
                  </div>
                  <div className="text-sm text-muted-foreground">{user.email}</div>
                  <div className="text-sm text-muted-foreground">
                    {t('admin.stats.proxyCount', { count: user.proxyCount })}
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setLimitsOf(user)}
                    data-testid="admin-user-limits"
                  >
                    {t('admin.limits.open')}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => {
                      setError(null);
                      setTarget(user);
                    }}
                    data-testid="admin-user-role"
                  >
                    {user.role === 'admin' ? t('admin.users.demote') : t('admin.users.promote')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryStates>
      {page.data ? <ListPager list={list} nextCursor={page.data.nextCursor} /> : null}
      <AlertDialog
        open={target !== null}
        onOpenChange={(open) => {
          if (!open && !change.isPending) setTarget(null);
        }}
      >
        <AlertDialogContent data-testid="admin-role-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>
              {nextRole === 'admin' ? t('admin.users.promoteTitle') : t('admin.users.demoteTitle')}
            </AlertDialogTitle>
            <AlertDialogDescription>
              {t(
                nextRole === 'admin' ? 'admin.users.promoteConfirm' : 'admin.users.demoteConfirm',
                {
                  username: target?.username ?? '',
                },
              )}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription data-testid="admin-role-error">{error}</AlertDescription>
            </Alert>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={change.isPending}>
              {t('admin.common.cancel')}
            </AlertDialogCancel>
            <BusyButton
              busy={change.isPending}
              onClick={() => void confirm()}
              data-testid="admin-role-confirm"
            >
              {nextRole === 'admin' ? t('admin.users.promote') : t('admin.users.demote')}
            </BusyButton>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <UserLimitsDialog user={limitsOf} onClose={() => setLimitsOf(null)} />
    </AdminPage>
  );
}
