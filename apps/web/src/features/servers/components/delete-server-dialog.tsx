import type { TServerActionResult, TSshServer } from '@portico/shared/ssh-servers/schemas';
import { Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { Choice } from '@/components/ui/choice';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { errorDescription } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useDeleteSshServer, useDeleteSshServerWithSites } from '../api/ssh-servers';
import { ActionReport, reportRow } from './action-report';

type TProps = {
  server: Pick<TSshServer, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
};

const IN_USE = 'ssh_server_in_use';

/**
 * Delete a saved server (docs/PRODUCT.md#ssh-servers). While proxies use it the API refuses,
 * saying how many: the dialog shows that and offers to delete them with their sites too, each
 * removed as deleting a proxy removes it (the same choices and words), then the server. When a
 * site could not be removed the server stays, and the dialog says for which proxy.
 */
export function DeleteServerDialog({ server, open, onOpenChange, onDeleted }: TProps) {
  const { t } = useServersTexts();
  const remove = useDeleteSshServer();
  const removeWithSites = useDeleteSshServerWithSites();
  const [inUse, setInUse] = React.useState<string | null>(null);
  const [withSites, setWithSites] = React.useState(false);
  const [removeCertificates, setRemoveCertificates] = React.useState(true);
  const [kept, setKept] = React.useState<TServerActionResult[] | null>(null);
  const pending = remove.isPending || removeWithSites.isPending;

  React.useEffect(() => {
    if (!open) return;
    setInUse(null);
    setWithSites(false);
    setRemoveCertificates(true);
    setKept(null);
  }, [open]);

  const deleted = () => {
    toast({ title: t('servers.deleteDialog.deleted'), description: server.name });
    onOpenChange(false);
    onDeleted?.();
  };

  const run = async () => {
    try {
      if (!withSites) {
        await remove.mutateAsync(server.id);
        return deleted();
      }
      const report = await removeWithSites.mutateAsync({ id: server.id, removeCertificates });
      if (report.deleted) return deleted();
      setKept(report.results);
    } catch (error) {
      if (error instanceof ApiError && error.body?.code === IN_USE) {
        setInUse(errorDescription(error, t));
      } else {
        toastFailure(error, t, t('servers.deleteDialog.failed'));
      }
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialogContent
        className="max-h-[90dvh] overflow-y-auto"
        data-testid="server-delete-dialog"
      >
        <AlertDialogHeader>
          <AlertDialogTitle>
            {t('servers.deleteDialog.title', { name: server.name })}
          </AlertDialogTitle>
          <AlertDialogDescription>{t('servers.deleteDialog.description')}</AlertDialogDescription>
        </AlertDialogHeader>
        {kept ? (
          <Alert variant="destructive" data-testid="server-delete-kept">
            <AlertTitle>{t('servers.deleteDialog.notDeleted')}</AlertTitle>
            <AlertDescription>
              <ActionReport results={kept.map(reportRow)} />
            </AlertDescription>
          </Alert>
        ) : null}
        {inUse && !kept ? (
          <div className="grid gap-3">
            <Alert variant="destructive" data-testid="server-in-use">
              <AlertDescription>{inUse}</AlertDescription>
            </Alert>
            <Choice
              id="server-delete-with-sites"
              checked={withSites}
              onChange={setWithSites}
              disabled={pending}
              label={t('servers.deleteDialog.withSites')}
              hint={t('servers.deleteDialog.withSitesHint')}
            />
            <Choice
              id="server-delete-certificates"
              checked={withSites && removeCertificates}
              onChange={setRemoveCertificates}
              disabled={pending || !withSites}
              label={t('servers.deleteDialog.removeCertificates')}
              hint={t('servers.deleteDialog.removeCertificatesHint')}
            />
          </div>
        ) : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending} data-testid="server-delete-cancel">
            {t('proxies.dialog.cancel')}
          </AlertDialogCancel>
          {kept ? null : (
            <BusyButton
              busy={pending}
              icon={<Trash2Icon aria-hidden="true" />}
              busyLabel={t('proxies.delete.deleting')}
              variant="destructive"
              disabled={inUse !== null && !withSites}
              onClick={() => void run()}
              data-testid="server-delete-confirm"
            >
              {withSites ? t('servers.deleteDialog.confirmWithSites') : t('proxies.delete.confirm')}
            </BusyButton>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
