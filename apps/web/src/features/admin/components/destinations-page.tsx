import type { TDestinationServer } from '@portico/shared/proxy/api';
import { PencilIcon, PlusIcon, PowerIcon, ServerIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
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
import { EmptyState } from '@/components/ui/empty-state';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useDeleteDestination, useUpdateDestination } from '../api/mutations';
import { useDestinations } from '../api/queries';
import { AdminPage, QueryStates } from './admin-page';
import { DestinationFormDialog } from './destination-form-dialog';

const STATUS_VARIANT = { online: 'success', offline: 'destructive', unknown: 'outline' } as const;

type TConfirm = { kind: 'delete' | 'toggle'; destination: TDestinationServer };

/** Admins create, edit, deactivate and delete destination servers (docs/PRODUCT.md#destination-servers). */
export function DestinationsPage() {
  const { t } = useAdminTexts();
  const destinations = useDestinations();
  const [form, setForm] = React.useState<{ open: boolean; destination: TDestinationServer | null }>(
    { open: false, destination: null },
  );
  const [confirm, setConfirm] = React.useState<TConfirm | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const remove = useDeleteDestination();
  const update = useUpdateDestination();
  const busy = remove.isPending || update.isPending;

  const ask = (next: TConfirm) => {
    setError(null);
    setConfirm(next);
  };

  const run = async () => {
    if (!confirm) return;
    setError(null);
    const { kind, destination } = confirm;
    try {
      if (kind === 'delete') {
        await remove.mutateAsync(destination.id);
        toast({ title: t('admin.destinations.deleted'), description: destination.name });
      } else {
        await update.mutateAsync({
          id: destination.id,
          input: { isActive: !destination.isActive },
        });
        toast({
          title: t(
            destination.isActive
              ? 'admin.destinations.deactivated'
              : 'admin.destinations.activated',
          ),
          description: destination.name,
        });
      }
      setConfirm(null);
    } catch (err) {
      // Shown inside the dialog, beside the action that failed (e.g. a destination still in use).
      setError(errorDescription(err, t));
    }
  };

  return (
    <AdminPage
      testId="admin-destinations-page"
      title={t('admin.destinations.title')}
      description={t('admin.destinations.description')}
      actions={
        <Button
          onClick={() => setForm({ open: true, destination: null })}
          data-testid="destination-add"
        >
          <PlusIcon aria-hidden="true" />
          {t('admin.destinations.add')}
        </Button>
      }
    >
      <QueryStates
        query={destinations}
        rowClassName="h-20"
        errorText={t('admin.errors.destinations')}
      >
        {(data) =>
          data.length === 0 ? (
            <EmptyState
              icon={ServerIcon}
              title={t('admin.destinations.empty')}
              description={t('admin.destinations.emptyDescription')}
              heading="h2"
              testId="destinations-empty"
            >
              <Button
                variant="outline"
                onClick={() => setForm({ open: true, destination: null })}
                data-testid="destination-add-first"
              >
                <PlusIcon aria-hidden="true" />
                {t('admin.destinations.add')}
              </Button>
            </EmptyState>
          ) : (
            <ul className="grid gap-3 md:grid-cols-2">
              {data.map((d) => (
                <li
                  key={d.id}
                  className="grid gap-2 rounded-lg border border-border p-4"
                  data-testid="admin-destination"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="min-w-0 break-all font-medium">{d.name}</span>
                    <div className="flex flex-wrap gap-1">
                      <Badge variant={STATUS_VARIANT[d.status]} data-testid="destination-status">
                        {t(`admin.destinations.status.${d.status}`)}
                      </Badge>
                      <Badge variant={d.isActive ? 'secondary' : 'warning'}>
                        {d.isActive
                          ? t('admin.destinations.activeBadge')
                          : t('admin.destinations.inactiveBadge')}
                      </Badge>
                    </div>
                  </div>
                  <p className="font-mono text-sm break-all">{d.endpoint}</p>
                  {d.description ? (
                    <p className="text-sm text-muted-foreground">{d.description}</p>
                  ) : null}
                  <p className="text-sm text-muted-foreground">
                    {t('admin.destinations.latency')}:{' '}
                    {d.latency === null
                      ? t('admin.common.na')
                      : t('admin.destinations.ms', { value: d.latency })}
                  </p>
                  {d.maintenanceNote ? (
                    <p className="text-sm text-warning">
                      {t('admin.destinations.maintenanceNote')}: {d.maintenanceNote}
                    </p>
                  ) : null}
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setForm({ open: true, destination: d })}
                      aria-label={t('admin.destinations.editOf', { name: d.name })}
                    >
                      <PencilIcon aria-hidden="true" />
                      {t('admin.destinations.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => ask({ kind: 'toggle', destination: d })}
                      data-testid="destination-toggle"
                    >
                      <PowerIcon aria-hidden="true" />
                      {d.isActive
                        ? t('admin.destinations.deactivate')
                        : t('admin.destinations.activate')}
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      className="text-destructive"
                      onClick={() => ask({ kind: 'delete', destination: d })}
                      aria-label={t('admin.destinations.deleteOf', { name: d.name })}
                    >
                      <Trash2Icon aria-hidden="true" />
                      {t('admin.destinations.delete')}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </QueryStates>
      <DestinationFormDialog
        destination={form.destination}
        open={form.open}
        onOpenChange={(open) => setForm((f) => ({ ...f, open }))}
      />
      <AlertDialog
        open={confirm !== null}
        onOpenChange={(open) => (!open && !busy ? setConfirm(null) : undefined)}
      >
        <AlertDialogContent data-testid="destination-confirm">
          <AlertDialogHeader>
            <AlertDialogTitle>{confirmTitle(confirm, t)}</AlertDialogTitle>
            <AlertDialogDescription>
              {confirm?.kind === 'delete'
                ? t('admin.destinations.deleteConfirm', { name: confirm.destination.name })
                : t(
                    confirm?.destination.isActive
                      ? 'admin.destinations.deactivateConfirm'
                      : 'admin.destinations.activateConfirm',
                    { name: confirm?.destination.name ?? '' },
                  )}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription data-testid="destination-confirm-error">{error}</AlertDescription>
            </Alert>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>{t('admin.common.cancel')}</AlertDialogCancel>
            <BusyButton
              busy={busy}
              variant={confirm?.kind === 'delete' ? 'destructive' : 'default'}
              onClick={() => void run()}
              data-testid="destination-confirm-action"
            >
              {confirmTitle(confirm, t)}
            </BusyButton>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </AdminPage>
  );
}

function confirmTitle(confirm: TConfirm | null, t: (key: string) => string): string {
  if (confirm?.kind === 'delete') return t('admin.destinations.delete');
  return confirm?.destination.isActive
    ? t('admin.destinations.deactivate')
    : t('admin.destinations.activate');
}
